import { Alert, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { dealerIdentityGaps, type DealerIdentityGap } from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { useSessionData } from '../../platform/auth/AuthProvider';

/** The club settings screen, where the dealer number and the address are set (navigation entry `settings`). */
export const CLUB_SETTINGS_ROUTE = '/management/app-settings';

/**
 * Why the club cannot issue a tax document yet (docs/money.md "The dealer's
 * identity on tax documents"): the translated message, what is missing
 * (`dealerIdentityGaps` of packages/domain, or the server's
 * DEALER_IDENTITY_MISSING `details.fields`), and for a user who may change the
 * club's settings a link to that screen; anyone else is asked to turn to a
 * manager.
 */
export function DealerIdentityAlert({ gaps, refused }: { gaps: readonly DealerIdentityGap[]; refused: boolean }) {
  const { t } = useTranslation();
  const allowed = useCan();
  const manager = allowed({ open: 'settings' }) && allowed({ flag: 'roleEditGeneralSettings' });
  return (
    <Alert
      style={{ marginBlockEnd: 16 }}
      type={refused ? 'error' : 'warning'}
      showIcon
      data-testid="dealer-identity-missing"
      message={refused ? t('errors.DEALER_IDENTITY_MISSING') : t('money.dealer.title')}
      description={
        <>
          <ul style={{ margin: 0, paddingInlineStart: 20 }}>
            {gaps.map((g) => (
              <li key={g}>{t(`money.dealer.${g}`)}</li>
            ))}
          </ul>
          {manager ? (
            <Link to={CLUB_SETTINGS_ROUTE} data-testid="dealer-settings-link">
              {t('money.dealer.openSettings')}
            </Link>
          ) : (
            <Typography.Text>{t('money.dealer.askManager')}</Typography.Text>
          )}
        </>
      }
    />
  );
}

/**
 * The purchase dialog's banner: the server's refusal when it refused the sale
 * (`refused`: what it found missing), else what the signed-in club's settings
 * lack (domain `dealerIdentityGaps`), shown before payment; nothing when the
 * club may issue tax documents.
 */
export function DealerIdentityBanner({ refused }: { refused: readonly DealerIdentityGap[] | null }) {
  const { club } = useSessionData();
  const gaps = refused ?? dealerIdentityGaps(club);
  return gaps.length > 0 ? <DealerIdentityAlert gaps={gaps} refused={refused != null} /> : null;
}
