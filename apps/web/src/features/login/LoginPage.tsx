import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { LockOutlined, ShopOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../app/layout/LanguageSwitch';
import { useLogin, type LoginFormValues } from './useLogin';
import { clearLoginReason, readLoginReason } from '../../app/auth/authStorage';
import { useSignInTitle } from '../../app/pageTitle';

/**
 * /login (seed 000 §2): userName, password and externalClubId in the query
 * prefill the form; with all three present the console signs in directly.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<LoginFormValues>();
  const { submit, error, submitting } = useLogin(form);
  const [params] = useSearchParams();
  useSignInTitle();
  // Shown once: the reason is cleared when the page has read it.
  const [expired] = useState(() => readLoginReason() === 'expired');
  useEffect(() => clearLoginReason(), []);
  const autoTried = useRef(false);

  const initial: LoginFormValues = {
    username: params.get('userName') ?? '',
    password: params.get('password') ?? '',
    externalClubId: params.get('externalClubId') ?? '',
  };

  useEffect(() => {
    if (autoTried.current) return;
    autoTried.current = true;
    if (initial.username && initial.password && initial.externalClubId) void submit(initial);
    // Run once with the parameters the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="login-page">
      <Card className="login-card">
        <div className="login-lang">
          <LanguageSwitch />
        </div>
        <Typography.Title level={3} style={{ marginBlockStart: 0 }}>
          {t('login.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('login.subtitle')}</Typography.Paragraph>
        {expired && !error && (
          <Alert
            type="warning"
            showIcon
            title={t('login.sessionExpired')}
            style={{ marginBlockEnd: 16 }}
            data-testid="login-expired"
          />
        )}
        {error && (
          <Alert type="error" showIcon title={error} style={{ marginBlockEnd: 16 }} data-testid="login-error" />
        )}
        <Form form={form} layout="vertical" initialValues={initial} onFinish={submit} requiredMark={false}>
          <Form.Item name="username" label={t('login.username')}>
            <Input prefix={<UserOutlined />} autoComplete="username" data-testid="login-username" />
          </Form.Item>
          <Form.Item name="password" label={t('login.password')}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="login-password" />
          </Form.Item>
          <Form.Item name="externalClubId" label={t('login.externalClubId')}>
            <Input prefix={<ShopOutlined />} inputMode="numeric" dir="ltr" data-testid="login-club" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
