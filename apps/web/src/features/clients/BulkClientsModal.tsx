import { useState } from 'react';
import { Alert, App, DatePicker, InputNumber, Modal, Select, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ClientStatus, type BulkAction } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { useGroupList } from '../groups/useGroups';
import { useBulkClients } from './useClients';
import { useToast } from '../../shared/toast/ToastProvider';

/** Actions offered on the multi-operation screen; money (addBeats) moves only through the ledger, not here. */
const ACTIONS: BulkAction[] = [
  'changeGroup',
  'extendSubscription',
  'setSubscriptionEnd',
  'setLicenseExpiry',
  'setStatus',
  'delete',
  'restore',
];

/**
 * Clients multi-operation (seed 001 §2): selected rows → action → new value →
 * confirm. The server applies it in one transaction with an audit row per client.
 */
export function BulkClientsModal({
  open,
  rows,
  onClose,
}: {
  open: boolean;
  rows: number[];
  onClose: (done: boolean) => void;
}) {
  const { t } = useTranslation();
  const [{ modal }, message] = [App.useApp(), useToast()];
  const groups = useGroupList();
  const bulk = useBulkClients();
  const [action, setAction] = useState<BulkAction | null>(null);
  const [value, setValue] = useState<number | string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const needsValue = action != null && !['delete', 'restore'].includes(action);
  const ready = action != null && (!needsValue || (value !== null && value !== ''));

  const valueText = () => {
    if (action === 'changeGroup') return groups.data?.items.find((g) => g.id === value)?.name ?? '';
    if (action === 'setStatus')
      return t(`clientStatus.${Object.entries(ClientStatus).find(([, v]) => v === value)?.[0] ?? 'Active'}`);
    return value == null ? '' : String(value);
  };

  const submit = () => {
    if (!action) return;
    modal.confirm({
      title: t('bulk.confirmTitle'),
      content: t('bulk.confirmBody', {
        count: rows.length,
        action: t(`bulk.action_${action}`),
        value: needsValue ? valueText() : '',
      }),
      okText: t('bulk.apply'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: action === 'delete', 'data-testid': 'bulk-confirm-ok' } as never,
      onOk: async () => {
        try {
          const res = await bulk.mutateAsync({ rows, action, newValue: needsValue ? value : null });
          message.success(t('bulk.done', { count: res.updated }));
          setAction(null);
          setValue(null);
          setError(null);
          onClose(true);
        } catch (e) {
          setError(errorText(t, e));
        }
      },
    });
  };

  return (
    <Modal
      open={open}
      title={t('bulk.title', { count: rows.length })}
      onCancel={() => onClose(false)}
      onOk={submit}
      okText={t('bulk.apply')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !ready, 'data-testid': 'bulk-apply' } as never}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ inlineSize: '100%' }}>
        <Typography.Text>{t('bulk.action')}</Typography.Text>
        <Select<BulkAction>
          style={{ inlineSize: '100%' }}
          value={action ?? undefined}
          placeholder={t('bulk.chooseAction')}
          onChange={(a) => {
            setAction(a);
            setValue(null);
          }}
          options={ACTIONS.map((a) => ({ value: a, label: t(`bulk.action_${a}`) }))}
          data-testid="bulk-action"
        />
        {needsValue && <Typography.Text>{t('bulk.newValue')}</Typography.Text>}
        {action === 'changeGroup' && (
          <Select<number>
            style={{ inlineSize: '100%' }}
            value={(value as number | null) ?? undefined}
            onChange={setValue}
            options={(groups.data?.items ?? []).map((g) => ({ value: g.id, label: g.name }))}
            data-testid="bulk-value"
          />
        )}
        {action === 'extendSubscription' && (
          <InputNumber
            min={1}
            max={3650}
            style={{ inlineSize: '100%' }}
            suffix={t('bulk.days')}
            value={value as number | null}
            onChange={(v) => setValue(v)}
            data-testid="bulk-value"
          />
        )}
        {(action === 'setSubscriptionEnd' || action === 'setLicenseExpiry') && (
          <DatePicker
            style={{ inlineSize: '100%' }}
            format="DD/MM/YYYY"
            onChange={(d: Dayjs | null) => setValue(d ? d.format('YYYY-MM-DD') : null)}
            data-testid="bulk-value"
          />
        )}
        {action === 'setStatus' && (
          <Select<number>
            style={{ inlineSize: '100%' }}
            value={(value as number | null) ?? undefined}
            onChange={setValue}
            options={[ClientStatus.Active, ClientStatus.Inactive].map((v) => ({
              value: v,
              label: t(`clientStatus.${v === 1 ? 'Active' : 'Inactive'}`),
            }))}
            data-testid="bulk-value"
          />
        )}
        {error && <Alert type="error" showIcon title={error} />}
      </Space>
    </Modal>
  );
}
