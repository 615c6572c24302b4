import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api/apiClient';
import { errorText } from '../../shared/errors';

/** Answer of `POST /api/Report/ReconcileSaferPayments` (docs/money.md): charges checked and how they were settled. */
interface ReconcileResult {
  checked: number;
  refunded: number;
  notCharged: number;
  stillUncertain: number;
}

/**
 * "Reconcile now" on the safer-payments page: asks the provider now about
 * every charge of unknown outcome (the daily job does the same), then
 * reloads the report.
 */
export function ReconcileSaferPaymentsButton() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const run = useMutation({ mutationFn: () => api.post<ReconcileResult>('/Report/ReconcileSaferPayments') });
  return (
    <Button
      icon={<SyncOutlined />}
      loading={run.isPending}
      data-testid="safer-reconcile"
      onClick={async () => {
        try {
          const r = await run.mutateAsync();
          message.success(t('reports.reconcileDone', { ...r }));
          await qc.invalidateQueries({ queryKey: ['report', 'saferPayments'] });
        } catch (e) {
          message.error(errorText(t, e));
        }
      }}
    >
      {t('reports.reconcileNow')}
    </Button>
  );
}
