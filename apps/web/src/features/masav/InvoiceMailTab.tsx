import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { contract, InvoiceMailSettings } from '@venue/domain';
import type { z } from 'zod';
import { api, ApiError } from '../../platform/api/apiClient';
import { errorText } from '../../shared/errors';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { useToast } from '../../shared/toast/ToastProvider';

/**
 * The club's invoice e-mail and the SMTP server documents are sent through (issue 18; docs/money.md
 * "E-mail to the invoice e-mail"): host, port, security (STARTTLS or TLS), user, a write-only
 * password (never shown; empty keeps the stored one), sender address, and "send test e-mail",
 * which sends with the saved settings. A tab of the money settings page.
 */
export function InvoiceMailTab() {
  const { t } = useTranslation();
  const toast = useToast();
  const qc = useQueryClient();
  const [testing, setTesting] = useState(false);
  const [testError, setTestError] = useState<{ text: string; reason?: string } | null>(null);
  const current = useQuery({
    queryKey: ['invoice-mail', 'settings'],
    queryFn: () => api.call(contract.documents.mailSettings),
  });
  const f = useSchemaForm<z.input<typeof InvoiceMailSettings>, typeof InvoiceMailSettings>({
    schema: InvoiceMailSettings,
    submit: (body) => api.call(contract.documents.saveMailSettings, { body }),
    onSaved: () => {
      toast.success(t('invoiceMail.saved'));
      f.form.setFieldValue('password', '');
      void qc.invalidateQueries({ queryKey: ['invoice-mail', 'settings'] });
    },
  });
  const sendTest = async () => {
    setTesting(true);
    setTestError(null);
    try {
      const r = await api.call(contract.documents.testMail);
      toast.success(t('invoiceMail.testSent', { to: r.to }));
    } catch (e) {
      // The SMTP server's own answer (technical, as it sent it) under the translated message.
      const raw = e instanceof ApiError && e.code === 'MAIL_SEND_FAILED' ? e.raw : undefined;
      setTestError({ text: errorText(t, e), reason: (raw as { reason?: string } | undefined)?.reason });
    } finally {
      setTesting(false);
    }
  };
  if (current.isLoading) return null;
  const d = current.data;
  return (
    <Form
      form={f.form}
      layout="vertical"
      style={{ maxInlineSize: 480 }}
      initialValues={{
        invoiceEmail: d?.invoiceEmail ?? '',
        host: d?.host ?? '',
        port: d?.port ?? 587,
        secure: d?.secure ?? false,
        user: d?.user ?? '',
        password: '',
        from: d?.from ?? '',
        autoSend: d?.autoSend ?? false,
      }}
      onFinish={f.onFinish}
      onFinishFailed={f.onFinishFailed}
      data-testid="invoice-mail-form"
    >
      <Typography.Paragraph type="secondary">{t('invoiceMail.help')}</Typography.Paragraph>
      {f.rootError && <Alert type="error" showIcon message={f.rootError} style={{ marginBlockEnd: 12 }} />}
      <Form.Item name="invoiceEmail" label={t('invoiceMail.invoiceEmail')}>
        <Input dir="ltr" type="email" autoComplete="off" maxLength={200} />
      </Form.Item>
      <Form.Item name="host" label={t('invoiceMail.host')}>
        <Input dir="ltr" autoComplete="off" maxLength={200} placeholder="smtp.example.org" />
      </Form.Item>
      <Space wrap align="start" style={{ inlineSize: '100%' }}>
        <Form.Item name="port" label={t('invoiceMail.port')}>
          <InputNumber dir="ltr" precision={0} style={{ inlineSize: 120 }} />
        </Form.Item>
        <Form.Item name="secure" label={t('invoiceMail.security')}>
          <Select
            style={{ minInlineSize: 260 }}
            options={[
              { value: false, label: t('invoiceMail.starttls') },
              { value: true, label: t('invoiceMail.tls') },
            ]}
          />
        </Form.Item>
      </Space>
      <Form.Item name="user" label={t('invoiceMail.user')}>
        <Input dir="ltr" autoComplete="off" maxLength={200} />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('invoiceMail.password')}
        extra={d?.passwordSet ? t('invoiceMail.passwordSet') : t('invoiceMail.passwordNone')}
      >
        <Input.Password dir="ltr" autoComplete="new-password" maxLength={200} />
      </Form.Item>
      <Form.Item name="from" label={t('invoiceMail.from')} extra={t('invoiceMail.fromHelp')}>
        <Input dir="ltr" type="email" autoComplete="off" maxLength={200} />
      </Form.Item>
      <Form.Item name="autoSend" hidden>
        <Input />
      </Form.Item>
      {testError && (
        <Alert
          type="error"
          showIcon
          message={testError.text}
          description={testError.reason ? <span dir="ltr">{testError.reason}</span> : undefined}
          style={{ marginBlockEnd: 12 }}
          data-testid="mail-test-error"
        />
      )}
      <Space wrap>
        <Button type="primary" htmlType="submit" loading={f.saving}>
          {t('invoiceMail.save')}
        </Button>
        <Button icon={<MailOutlined />} onClick={() => void sendTest()} loading={testing} data-testid="mail-test">
          {t('invoiceMail.test')}
        </Button>
      </Space>
    </Form>
  );
}
