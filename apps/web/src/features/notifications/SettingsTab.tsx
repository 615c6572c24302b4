import { useEffect } from 'react';
import { Button, Checkbox, Form, Input, InputNumber, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { NOTICE_KINDS, NotificationSettings } from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { MoneyInput } from '../../shared/MoneyInput';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { useToast } from '../../shared/toast/ToastProvider';
import { useNoticeSettings, useSaveNoticeSettings } from './useNotifications';

type Values = Omit<NotificationSettings, 'quietFrom' | 'quietTo'> & { quietFrom: string; quietTo: string };

const toTime = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const toMinutes = (s: string) => {
  const [h, m] = (s || '').split(':').map(Number);
  return Number.isInteger(h) && Number.isInteger(m) ? h * 60 + m : NaN;
};

/** The club's notice settings (docs/notifications.md "Settings"): sender, quiet hours, timing, kinds. */
export function SettingsTab() {
  const { t } = useTranslation();
  const toast = useToast();
  const mayEdit = useCan()({ edit: 'settings' });
  const current = useNoticeSettings();
  const save = useSaveNoticeSettings();
  const { form, onFinish, onFinishFailed, rootError, saving } = useSchemaForm({
    schema: NotificationSettings,
    toInput: (v: Values) => ({ ...v, quietFrom: toMinutes(v.quietFrom), quietTo: toMinutes(v.quietTo) }),
    submit: (body) => save.mutateAsync(body),
    onSaved: () => toast.success(t('notifications.settings.saved')),
  });
  useEffect(() => {
    if (current.data)
      form.setFieldsValue({
        ...current.data,
        quietFrom: toTime(current.data.quietFrom),
        quietTo: toTime(current.data.quietTo),
      });
  }, [current.data, form]);
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={onFinish}
      onFinishFailed={onFinishFailed}
      disabled={!mayEdit}
      style={{ maxWidth: 560 }}
    >
      <Form.Item name="enabled" label={t('notifications.settings.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name="senderName"
        label={t('notifications.settings.senderName')}
        extra={t('notifications.settings.senderNameHint')}
      >
        <Input />
      </Form.Item>
      <Form.Item name="replyTo" label={t('notifications.settings.replyTo')}>
        <Input dir="ltr" type="email" />
      </Form.Item>
      <Form.Item name="smsSender" label={t('notifications.settings.smsSender')}>
        <Input dir="ltr" maxLength={11} />
      </Form.Item>
      <Typography.Paragraph type="secondary">{t('notifications.settings.restHint')}</Typography.Paragraph>
      <Form.Item label={t('notifications.settings.quiet')} style={{ marginBottom: 0 }}>
        <Form.Item name="quietFrom" style={{ display: 'inline-block', width: 140, marginInlineEnd: 8 }}>
          <Input type="time" aria-label={t('notifications.settings.quietFrom')} />
        </Form.Item>
        <Form.Item name="quietTo" style={{ display: 'inline-block', width: 140 }}>
          <Input type="time" aria-label={t('notifications.settings.quietTo')} />
        </Form.Item>
      </Form.Item>
      <Form.Item name="renewalDaysBefore" label={t('notifications.settings.renewalDaysBefore')}>
        <InputNumber min={1} max={60} />
      </Form.Item>
      <Form.Item name="lowBalanceThreshold" label={t('notifications.settings.lowBalanceThreshold')}>
        <MoneyInput />
      </Form.Item>
      <Form.Item name="kinds" label={t('notifications.settings.kinds')}>
        <Checkbox.Group options={NOTICE_KINDS.map((k) => ({ value: k, label: t(`notifications.kinds.${k}`) }))} />
      </Form.Item>
      {rootError && <Typography.Text type="danger">{rootError}</Typography.Text>}
      {mayEdit && (
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('notifications.settings.save')}
        </Button>
      )}
    </Form>
  );
}
