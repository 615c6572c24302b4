import { useState } from 'react';
import { Button, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { LicenseRequestStatus, type OperatorLicenseRequest, fromMinor } from '@venue/domain';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';
import { useDecideRequest, useLicenseQueue, viewReferenceFile } from './useOperator';
import { ListTable } from '../../shared/CardList';
import { OperatorOnly } from './OperatorOnly';

const STATUS_COLORS: Record<number, string> = { 1: 'processing', 2: 'success', 3: 'error', 4: 'default', 5: 'default' };

/** Every club's bank-transfer license requests (issue 17 "Licenses"; docs/operator.md): operator only. */
export function LicenseQueuePage() {
  return (
    <OperatorOnly>
      <LicenseQueue />
    </OperatorOnly>
  );
}

function LicenseQueue() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<number | undefined>(LicenseRequestStatus.Pending);
  const [rejecting, setRejecting] = useState<OperatorLicenseRequest | null>(null);
  const query = useLicenseQueue(status);
  const columns = useQueueColumns(setRejecting);
  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('operator.queueTitle')}</Typography.Title>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select<number>
          allowClear
          placeholder={t('operator.status')}
          aria-label={t('operator.status')}
          value={status}
          style={{ width: 200 }}
          onChange={setStatus}
          options={[1, 2, 3, 4, 5].map((s) => ({ value: s, label: t(`operator.requestStatus.${s}`) }))}
          data-testid="queue-status"
        />
      </Space>
      <ListTable<OperatorLicenseRequest>
        rowKey="id"
        columns={columns}
        dataSource={query.data ?? []}
        loading={query.isPending}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        // No sideways scrolling at 1280 px and up (issue 34 item 7): cells wrap.
        tableLayout="auto"
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('operator.queueEmpty') }}
      />
      <RejectModal request={rejecting} onClose={() => setRejecting(null)} />
    </>
  );
}

function useQueueColumns(onReject: (r: OperatorLicenseRequest) => void): TableColumnsType<OperatorLicenseRequest> {
  const { t } = useTranslation();
  const toast = useToast();
  const decide = useDecideRequest();
  const locale = useLanguage() === 'he' ? 'he-IL' : 'en-GB';
  const money = (minor: number) => fromMinor(minor).toLocaleString(locale, { minimumFractionDigits: 2 });
  const run = (r: OperatorLicenseRequest, s: 2 | 5) =>
    decide.mutate(
      { id: r.id, body: { status: s } },
      {
        onSuccess: () => toast.success(t(`operator.requestStatus.${s}`)),
        onError: (e) => toast.error(errorText(t, e)),
      },
    );
  return [
    {
      title: t('operator.club'),
      key: 'club',
      render: (_, r) => <span dir="auto">{`${r.externalClubId} · ${r.clubName}`}</span>,
    },
    { title: t('operator.quantity'), dataIndex: 'quantity' },
    { title: t('operator.amount'), dataIndex: 'amount', render: money },
    { title: t('operator.transferDate'), dataIndex: 'transferDate' },
    { title: t('operator.reference'), dataIndex: 'reference', render: (v: string) => <span dir="auto">{v}</span> },
    {
      title: t('operator.file'),
      key: 'file',
      render: (_, r) => (
        <Button
          size="small"
          type="link"
          onClick={() => viewReferenceFile(r.id).catch((e: unknown) => toast.error(errorText(t, e)))}
        >
          {t('operator.viewFile')}
        </Button>
      ),
    },
    {
      title: t('operator.status'),
      dataIndex: 'status',
      render: (s: number, r) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATUS_COLORS[s]}>{t(`operator.requestStatus.${s}`)}</Tag>
          {r.reason && <Typography.Text type="secondary">{r.reason}</Typography.Text>}
        </Space>
      ),
    },
    {
      key: 'actions',
      render: (_, r) =>
        r.status === LicenseRequestStatus.Pending && (
          <Space wrap size={[4, 4]}>
            <Button size="small" type="primary" onClick={() => run(r, 2)} data-testid={`approve-${r.id}`}>
              {t('operator.approve')}
            </Button>
            <Button size="small" danger onClick={() => onReject(r)} data-testid={`reject-${r.id}`}>
              {t('operator.reject')}
            </Button>
            <Button size="small" onClick={() => run(r, 5)}>
              {t('operator.cancelRequest')}
            </Button>
          </Space>
        ),
    },
  ];
}

/** Rejection needs a reason (RejectedByManager, seed 001 §4). */
function RejectModal({ request, onClose }: { request: OperatorLicenseRequest | null; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const decide = useDecideRequest();
  const [reason, setReason] = useState('');
  const submit = () =>
    decide.mutate(
      { id: request!.id, body: { status: 3, reason } },
      {
        onSuccess: () => {
          toast.success(t('operator.requestStatus.3'));
          setReason('');
          onClose();
        },
        onError: (e) => toast.error(errorText(t, e)),
      },
    );
  return (
    <Modal
      open={request != null}
      title={t('operator.reject')}
      onCancel={onClose}
      onOk={submit}
      okButtonProps={{ disabled: !reason.trim(), danger: true }}
      confirmLoading={decide.isPending}
    >
      <Input.TextArea
        rows={3}
        maxLength={500}
        value={reason}
        placeholder={t('operator.rejectReason')}
        aria-label={t('operator.rejectReason')}
        onChange={(e) => setReason(e.target.value)}
        data-testid="reject-reason"
      />
    </Modal>
  );
}
