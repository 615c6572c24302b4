import { Alert, Button } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Club } from '@venue/domain';
import { writeActingClub } from '../../platform/auth/authStorage';

/** Where the operator's club list is (navigation entry `operatorClubs`). */
export const OPERATOR_CLUBS_ROUTE = '/operator/clubs';

/**
 * The operator's reminder above every screen (docs/operator.md "Act on a
 * club"): which club it is acting on; its changes are audited under its own name.
 */
export function OperatorBanner({ club }: { club: Club }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="info"
      showIcon
      banner
      style={{ marginBottom: 12 }}
      data-testid="operator-banner"
      message={
        <span dir="auto">{t('operator.actingOn', { name: club.name, externalClubId: club.externalClubId })}</span>
      }
      action={
        <Link to={OPERATOR_CLUBS_ROUTE}>
          <Button size="small" type="link">
            {t('operator.otherClub')}
          </Button>
        </Link>
      }
    />
  );
}

/** Switches the club the operator acts on and reloads the console on its first screen. */
export function actOnClub(externalClubId: number): void {
  writeActingClub(externalClubId);
  window.location.assign('/');
}
