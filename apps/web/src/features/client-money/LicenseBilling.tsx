import { Alert, Card, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contract, formatMinor, type ClubCharge, type ClubChargeStatus } from '@venue/domain';
import { api } from '../../platform/api/apiClient';

const COLOR: Record<ClubChargeStatus, string> = {
  approved: 'success',
  declined: 'error',
  uncertain: 'warning',
  noCard: 'error',
};

/**
 * The operator's yearly charges of the club's licenses and its stored card
 * (GET /License/Charges; docs/operator.md "Charging clubs"): a failed latest
 * charge is shown as an alert, so the club sees what the operator sees.
 */
export function LicenseBilling() {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['licenses', 'billing'],
    queryFn: () => api.call(contract.operatorBilling.clubBilling),
  });
  const charges = q.data?.charges ?? [];
  const last = charges[0];
  return (
    <Card size="small" title={t('licenses.billing.title')} data-testid="license-billing" style={{ marginBlockEnd: 16 }}>
      {last && last.status !== 'approved' && (
        <Alert
          type="error"
          showIcon
          style={{ marginBlockEnd: 12 }}
          data-testid="license-charge-failed"
          message={t(`licenses.billing.failed.${last.status}`, { year: last.year, amount: formatMinor(last.amount) })}
        />
      )}
      <Typography.Paragraph>
        {q.data?.card ? (
          <span>
            {t('licenses.billing.card')}{' '}
            <span className="ltr-value">
              {q.data.card.brand} •••• {q.data.card.lastFour} ({q.data.card.expiry})
            </span>
          </span>
        ) : (
          t('licenses.billing.noCard')
        )}
      </Typography.Paragraph>
      {charges.length > 0 && (
        <Table<ClubCharge>
          size="small"
          rowKey="id"
          dataSource={charges}
          pagination={{ pageSize: 5, hideOnSinglePage: true }}
          scroll={{ x: 'max-content' }}
          columns={[
            { key: 'year', title: t('licenses.billing.year'), dataIndex: 'year' },
            { key: 'qty', title: t('licenses.quantity'), dataIndex: 'quantity' },
            {
              key: 'amount',
              title: t('licenses.billing.amount'),
              align: 'end',
              render: (_, c) => <span className="ltr-value">{formatMinor(c.amount)}</span>,
            },
            {
              key: 'status',
              title: t('money.status'),
              render: (_, c) => <Tag color={COLOR[c.status]}>{t(`licenses.billing.status.${c.status}`)}</Tag>,
            },
          ]}
        />
      )}
    </Card>
  );
}
