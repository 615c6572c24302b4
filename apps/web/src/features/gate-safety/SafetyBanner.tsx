import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '../../platform/auth/useCan';
import { useFormat } from '../../shared/useFormat';
import { useSafetyState } from './useGateSafety';

/**
 * The club's emergency on every screen of the console (issue 36, docs/gate-safety.md): a red
 * banner while every gate is held open (evacuation), an orange one during a lockdown, each with
 * its reason, who started it and since when, and the way to the gate safety screen for those who
 * may release it. Live: it appears and goes on every console of the club at once.
 */
export function SafetyBanner() {
  const { t } = useTranslation();
  const allowed = useCan();
  const fmt = useFormat();
  const { data } = useSafetyState();
  if (!data || data.mode === 'normal') return null;
  const step = data.mode === 'openAll' ? data.openAll! : data.lockdown!;
  const canOpen = allowed({ open: 'gateSafety' });
  return (
    <Alert
      banner
      showIcon
      type={data.mode === 'openAll' ? 'error' : 'warning'}
      role="alert"
      className="safety-banner"
      data-testid="safety-banner"
      data-mode={data.mode}
      title={t(`gateSafety.banner.${data.mode}`)}
      description={t('gateSafety.banner.detail', {
        reason: step.reason,
        by: step.by,
        since: fmt.dateTime(step.since),
      })}
      action={
        canOpen ? (
          <Link to="/management/gate-safety">
            <Button size="small">{t('gateSafety.banner.manage')}</Button>
          </Link>
        ) : undefined
      }
    />
  );
}
