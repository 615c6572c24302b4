import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { contract } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';

/**
 * "Reconcile now" on the safer-payments page: asks the provider now about
 * every charge of unknown outcome (the daily job does the same), then
 * reloads the report.
 */
export function ReconcileSaferPaymentsButton() {
  const { t } = useTranslation();
  const message = useToast();
  const qc = useQueryClient();
  const run = useMutation({ mutationFn: () => api.call(contract.purchases.reconcileSaferPayments) });
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
