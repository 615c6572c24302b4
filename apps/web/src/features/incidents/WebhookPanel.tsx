import { useEffect } from 'react';
import { Form, Input, Switch, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { IncidentWebhookInput, type IncidentDelivery } from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { FormDrawer } from '../../shared/forms/FormDrawer';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';
import { useDeliveries, useSaveWebhook, useWebhook } from './useWebhook';
import { ListTable } from '../../shared/CardList';
import { useFormat } from '../../shared/useFormat';

const STATUS_COLOR = { pending: 'orange', delivered: 'green', failed: 'red' } as const;

/** The delivery log of incidents to the club's reporting system (docs/messages.md "Webhook"). */
export function DeliveryLog() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const query = useDeliveries(true);
  const when = (v: string | null) => (v ? <span className="ltr-value">{fmt.dateTime(v)}</span> : '—');
  const columns: TableColumnsType<IncidentDelivery> = [
    { title: t('incidents.time'), dataIndex: 'createdAt', render: when },
    { title: t('incidents.incident'), dataIndex: 'incidentId' },
    {
      title: t('incidents.status'),
      dataIndex: 'status',
      render: (s: IncidentDelivery['status']) => <Tag color={STATUS_COLOR[s]}>{t(`incidents.delivery.${s}`)}</Tag>,
    },
    { title: t('incidents.delivery.attempts'), dataIndex: 'attempts' },
    {
      title: t('incidents.delivery.last'),
      key: 'last',
      // The server gives a category (docs/security.md "Outgoing requests"), never the socket's own words.
      render: (_, d) =>
        d.lastError
          ? t(`incidents.delivery.error.${d.lastError}`, { status: d.lastStatusCode, defaultValue: d.lastError })
          : d.lastStatusCode != null
            ? `HTTP ${d.lastStatusCode}`
            : '—',
    },
    { title: t('incidents.delivery.next'), dataIndex: 'nextAttemptAt', render: when },
    { title: t('incidents.delivery.deliveredAt'), dataIndex: 'deliveredAt', render: when },
  ];
  return (
    <ListTable<IncidentDelivery>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={query.data ?? []}
      loading={query.isPending}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: query.isError ? errorText(t, query.error) : t('incidents.delivery.empty') }}
    />
  );
}

interface WebhookValues {
  url: string;
  secret: string;
  enabled: boolean;
}

/** The operator's form of the club's webhook: URL, a new secret (empty keeps the stored one), on/off. */
export function WebhookDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const isOperator = useCan()({ operator: true });
  const current = useWebhook(open && isOperator);
  const save = useSaveWebhook();
  const { form, onFinish, onFinishFailed, rootError, clearRootError, saving } = useSchemaForm({
    schema: IncidentWebhookInput,
    toInput: (v: WebhookValues) => ({
      url: v.url ?? '',
      enabled: v.enabled,
      ...(v.secret ? { secret: v.secret } : {}),
    }),
    submit: (body) => save.mutateAsync(body),
    onSaved: () => {
      toast.success(t('incidents.webhook.saved'));
      onClose();
    },
  });
  useEffect(() => {
    if (!open || !current.data) return;
    clearRootError();
    form.setFieldsValue({ url: current.data.url, secret: '', enabled: current.data.url ? current.data.enabled : true });
  }, [open, current.data, form, clearRootError]);
  return (
    <FormDrawer
      open={open}
      title={t('incidents.webhook.title')}
      onClose={onClose}
      width={480}
      forceRender
      onSave={() => form.submit()}
      saving={saving}
      rootError={rootError}
    >
      <Typography.Paragraph type="secondary">{t('incidents.webhook.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={onFinish} onFinishFailed={onFinishFailed}>
        <Form.Item name="url" label={t('incidents.webhook.url')}>
          <Input dir="ltr" placeholder="https://" />
        </Form.Item>
        <Form.Item
          name="secret"
          label={t('incidents.webhook.secret')}
          extra={current.data?.hasSecret ? t('incidents.webhook.secretKept') : undefined}
        >
          <Input.Password dir="ltr" autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="enabled" label={t('incidents.webhook.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
