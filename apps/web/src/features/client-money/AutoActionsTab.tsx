import { Empty, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../shared/QueryState';
import { useMoneyFormat } from './format';
import { useAutoRenewLogs, type AutoRenewLogRow } from './useMoney';
import { ListTable } from '../../shared/CardList';
import type { MoneyTabProps } from './moneyTab';

/** The client's automatic actions tab: the log of automatic renewals (seed 001 §2 "Client details"). */
export function AutoActionsTab({ clientId }: MoneyTabProps) {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  const logs = useAutoRenewLogs(clientId);
  return (
    <QueryState loading={logs.isPending} error={logs.error} onRetry={() => void logs.refetch()}>
      <ListTable<AutoRenewLogRow>
        data-testid="money-auto"
        size="small"
        rowKey="id"
        dataSource={logs.data ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('money.noAutoActions')} /> }}
        columns={[
          {
            key: 'at',
            title: t('money.at'),
            render: (_, r) => <span className="ltr-value nowrap">{fmt.dateTime(r.at)}</span>,
          },
          {
            key: 'result',
            title: t('money.result'),
            render: (_, r) =>
              r.success ? (
                <Tag color="green">{t('money.renewOk')}</Tag>
              ) : (
                <Tag color="red">{t('money.renewFailed')}</Tag>
              ),
          },
          { key: 'start', title: t('money.start'), render: (_, r) => fmt.date(r.startDate) },
          { key: 'end', title: t('money.end'), render: (_, r) => fmt.date(r.endDate) },
          { key: 'amount', title: t('money.amount'), align: 'end', render: (_, r) => fmt.money(r.amount) },
          {
            key: 'error',
            title: t('money.error'),
            render: (_, r) => (r.error ? t(`errors.${r.error.split(':')[0]}`, { defaultValue: r.error }) : ''),
          },
        ]}
      />
    </QueryState>
  );
}
