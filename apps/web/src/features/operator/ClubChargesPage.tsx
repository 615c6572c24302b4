import { useState } from 'react';
import { Button, Form, InputNumber, Modal, Segmented, Select, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DollarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatMinor, type ClubCharge, type ClubChargeStatus } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { ListTable } from '../../shared/CardList';
import { useToast } from '../../shared/toast/ToastProvider';
import { useClubCharges, useOperatorClubs, useStartCharge } from './useOperator';
import { OperatorOnly } from './OperatorOnly';
import { useFormat } from '../../shared/useFormat';

export const CHARGE_STATUS_COLOR: Record<ClubChargeStatus, string> = {
  approved: 'success',
  declined: 'error',
  uncertain: 'warning',
  noCard: 'error',
};

/**
 * The operator's charges of clubs for their license years (issue 17 "Charging
 * clubs"; docs/operator.md): every attempt, failed ones on their own, and
 * "Charge a club" (POST /Operator/Club/{id}/StartChargeClub).
 */
export function ClubChargesPage() {
  return (
    <OperatorOnly>
      <ClubCharges />
    </OperatorOnly>
  );
}

function ClubCharges() {
  const { t } = useTranslation();
  const [show, setShow] = useState<'all' | 'failed'>('all');
  const [starting, setStarting] = useState(false);
  const query = useClubCharges(show === 'failed' ? true : undefined);
  const columns = useChargeColumns();
  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.operatorCharges')}</Typography.Title>
        <Button type="primary" icon={<DollarOutlined />} onClick={() => setStarting(true)} data-testid="charge-new">
          {t('operator.charge.start')}
        </Button>
      </div>
      <Segmented
        style={{ marginBottom: 12 }}
        value={show}
        onChange={(v) => setShow(v as 'all' | 'failed')}
        options={[
          { value: 'all', label: t('operator.charge.all') },
          { value: 'failed', label: t('operator.charge.failedOnly') },
        ]}
        data-testid="charges-filter"
      />
      <ListTable<ClubCharge>
        rowKey="id"
        columns={columns}
        dataSource={query.data ?? []}
        loading={query.isPending}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        // No sideways scrolling at 1280 px and up (issue 34 item 7): cells wrap.
        tableLayout="auto"
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('operator.charge.empty') }}
        data-testid="charges-table"
      />
      <StartChargeModal open={starting} onClose={() => setStarting(false)} />
    </>
  );
}

/** Columns of a list of charges (the operator's; the club's licenses page shows the same attempts). */
export function useChargeColumns(withClub = true): TableColumnsType<ClubCharge> {
  const { t } = useTranslation();
  const fmt = useFormat();
  const club: TableColumnsType<ClubCharge> = withClub
    ? [
        { title: t('operator.externalClubId'), dataIndex: 'externalClubId' },
        { title: t('operator.name'), dataIndex: 'clubName', render: (v: string) => <span dir="auto">{v}</span> },
      ]
    : [];
  return [
    {
      title: t('operator.charge.at'),
      dataIndex: 'createdAt',
      render: (v: string) => <span className="ltr-value">{fmt.dateTime(v)}</span>,
    },
    ...club,
    { title: t('operator.charge.year'), dataIndex: 'year' },
    { title: t('operator.charge.attempt'), dataIndex: 'attempt' },
    { title: t('operator.quantity'), dataIndex: 'quantity' },
    {
      title: t('operator.charge.amount'),
      dataIndex: 'amount',
      align: 'end',
      render: (v: number) => <span className="ltr-value">{formatMinor(v)}</span>,
    },
    {
      title: t('operator.charge.card'),
      dataIndex: 'lastFour',
      render: (v: string) => (v ? <span className="ltr-value">•••• {v}</span> : '—'),
    },
    {
      title: t('operator.status'),
      key: 'status',
      render: (_, c) => (
        <span data-testid={`charge-status-${c.id}`}>
          <Tag color={CHARGE_STATUS_COLOR[c.status]}>{t(`operator.charge.status.${c.status}`)}</Tag>
          {c.error && <Typography.Text type="secondary">{c.error}</Typography.Text>}
        </span>
      ),
    },
  ];
}

/** Picks a club, a license year and (optionally) a quantity, and charges the club's stored card. */
function StartChargeModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const clubs = useOperatorClubs({});
  const start = useStartCharge();
  const [clubId, setClubId] = useState<number | null>(null);
  const [year, setYear] = useState<number | null>(new Date().getFullYear());
  const [quantity, setQuantity] = useState<number | null>(null);
  const submit = () =>
    start.mutate(
      { clubId: clubId!, body: { year: year!, ...(quantity ? { quantity } : {}) } },
      {
        onSuccess: (c) => {
          const text = t(`operator.charge.result.${c.status}`, { name: c.clubName, amount: formatMinor(c.amount) });
          if (c.status === 'approved') toast.success(text);
          else toast.error(text);
          onClose();
        },
        onError: (e) => toast.error(errorText(t, e)),
      },
    );
  return (
    <Modal
      open={open}
      title={t('operator.charge.start')}
      onCancel={onClose}
      onOk={submit}
      okText={t('operator.charge.run')}
      okButtonProps={{ disabled: clubId == null || !year, ...{ 'data-testid': 'charge-run' } }}
      confirmLoading={start.isPending}
    >
      <Form layout="vertical">
        <Form.Item label={t('operator.name')} required>
          <Select<number>
            showSearch
            optionFilterProp="label"
            value={clubId ?? undefined}
            onChange={setClubId}
            loading={clubs.isPending}
            options={(clubs.data ?? []).map((c) => ({ value: c.id, label: `${c.externalClubId} · ${c.name}` }))}
            data-testid="charge-club"
          />
        </Form.Item>
        <Form.Item label={t('operator.charge.year')} required>
          <InputNumber min={2000} max={2100} precision={0} value={year} onChange={setYear} data-testid="charge-year" />
        </Form.Item>
        <Form.Item label={t('operator.quantity')} extra={t('operator.charge.quantityHelp')}>
          <InputNumber min={1} max={1000000} precision={0} value={quantity} onChange={setQuantity} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
