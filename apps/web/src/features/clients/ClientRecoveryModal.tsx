import { useState } from 'react';
import { Button, Input, Modal, Table, Typography } from 'antd';
import { UndoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ClientStatus, type Client } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { useDebounced } from '../../shared/useDebounced';
import { useClientFormat } from './clientFormat';
import { useClientList, useSetClientStatus } from './useClients';
import { useToast } from '../../shared/toast/ToastProvider';

/**
 * Client recovery (seed 000 §2 "client recovery"): find a deleted client by
 * name, phone, ID or card and restore it with its history, group and money.
 */
export function ClientRecoveryModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const message = useToast();
  const fmt = useClientFormat();
  const [text, setText] = useState('');
  const search = useDebounced(text.trim(), 300);
  const [page, setPage] = useState(1);
  const q = useClientList({
    page,
    pageSize: 10,
    order: 'desc',
    sort: 'number',
    status: ClientStatus.Deleted,
    showDeleted: true,
    search: search || undefined,
  });
  const restore = useSetClientStatus();
  return (
    <Modal open={open} onCancel={onClose} footer={null} width={760} title={t('clients.recovery')} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('clients.recoveryHelp')}</Typography.Paragraph>
      <Input.Search
        allowClear
        placeholder={t('clients.searchPlaceholder')}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setPage(1);
        }}
        style={{ marginBlockEnd: 12 }}
        data-testid="recovery-search"
      />
      <Table<Client>
        data-testid="recovery-table"
        size="small"
        rowKey="id"
        loading={q.isFetching}
        dataSource={q.data?.items ?? []}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: q.isError ? errorText(t, q.error) : t('clients.noDeleted') }}
        pagination={{ current: page, pageSize: 10, total: q.data?.total ?? 0, onChange: setPage }}
        columns={[
          { key: 'number', title: t('clients.number'), dataIndex: 'number' },
          {
            key: 'name',
            title: t('clients.name'),
            dataIndex: 'name',
            render: (v: string) => <span dir="auto">{v}</span>,
          },
          {
            key: 'personalId',
            title: t('clients.personalId'),
            dataIndex: 'personalId',
            render: (v: string) => <span className="ltr-value">{v}</span>,
          },
          { key: 'balance', title: t('clients.balance'), dataIndex: 'balance', render: (v: number) => fmt.money(v) },
          {
            key: 'restore',
            render: (_, c) => (
              <Button
                size="small"
                icon={<UndoOutlined />}
                loading={restore.isPending && restore.variables?.id === c.id}
                onClick={() =>
                  void restore
                    .mutateAsync({ id: c.id, status: ClientStatus.Active })
                    .then(() => message.success(t('clients.restored')))
                    .catch((e: unknown) => message.error(errorText(t, e)))
                }
              >
                {t('clients.restore')}
              </Button>
            ),
          },
        ]}
      />
    </Modal>
  );
}
