import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  DatePicker,
  Descriptions,
  Empty,
  Form,
  Input,
  Popconfirm,
  Radio,
  Select,
  Space,
} from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { ISRAELI_BANKS, type PaymentMethodInput } from '@venue/domain';
import { QueryState } from '../../shared/QueryState';
import { MoneyInput } from '../../shared/MoneyInput';
import { errorText, serverFieldIssues } from '../../shared/errors';
import { useSessionData } from '../../app/auth/AuthProvider';
import { useLanguage } from '../../app/i18n/LocaleProvider';
import { useMoneyFormat } from './format';
import { useDeletePaymentMethod, usePaymentMethod, useSavePaymentMethod } from './useMoney';
import type { MoneyTabProps } from './MoneyTabs';

interface FormValues {
  number?: string;
  expiry?: string;
  cvv?: string;
  ownerName?: string;
  ownerId?: string;
  bankCode?: string;
  branch?: string;
  account?: string;
  authExpiry?: Dayjs | null;
  chargeLimit?: number | null;
}

/**
 * The client's payment method (seed 001 §3): a card (sent to the clearing
 * provider, only the last four kept) or a MASAV bank authorization. One per
 * client: replacing means deleting first.
 */
export function PaymentMethodTab({ clientId, canEdit }: MoneyTabProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lang = useLanguage();
  const { club } = useSessionData();
  const fmt = useMoneyFormat();
  const pm = usePaymentMethod(clientId);
  const save = useSavePaymentMethod(clientId);
  const del = useDeletePaymentMethod(clientId);
  const [kind, setKind] = useState<'card' | 'masav'>('card');
  const [form] = Form.useForm<FormValues>();
  const [error, setError] = useState<string | null>(null);

  const submit = async (v: FormValues) => {
    setError(null);
    const body: PaymentMethodInput =
      kind === 'card'
        ? {
            kind: 'card',
            clientId,
            card: {
              number: v.number ?? '',
              expiry: v.expiry ?? '',
              cvv: v.cvv ?? '',
              ownerId: v.ownerId ?? '',
              ownerName: v.ownerName ?? '',
            },
          }
        : {
            kind: 'masav',
            clientId,
            bankCode: v.bankCode ?? '',
            branch: v.branch ?? '',
            account: v.account ?? '',
            ownerId: v.ownerId ?? '',
            ownerName: v.ownerName ?? '',
            authExpiry: v.authExpiry ? v.authExpiry.format('YYYY-MM-DD') : null,
            chargeLimit: v.chargeLimit ?? 0,
          };
    try {
      await save.mutateAsync(body);
      message.success(t('money.methodSaved'));
      form.resetFields();
    } catch (e) {
      const fields = serverFieldIssues(t, e).map((f) => ({ ...f, name: f.name.filter((n) => n !== 'card') }));
      if (fields.length) form.setFields(fields as never);
      setError(errorText(t, e));
    }
  };

  return (
    <QueryState loading={pm.isPending} error={pm.error} onRetry={() => void pm.refetch()}>
      <div data-testid="money-payment-method">
        {pm.data ? (
          <Space orientation="vertical" size="middle" style={{ inlineSize: '100%' }}>
            <Descriptions
              bordered
              size="small"
              column={{ xs: 1, sm: 2 }}
              items={
                pm.data.kind === 'card'
                  ? [
                      { key: 'kind', label: t('money.methodKind'), children: t('money.card') },
                      {
                        key: 'number',
                        label: t('money.cardNumber'),
                        children: (
                          <span className="ltr-value">{`${pm.data.brand ?? ''} ···· ${pm.data.lastFour}`}</span>
                        ),
                      },
                      {
                        key: 'expiry',
                        label: t('money.cardExpiry'),
                        children: <span className="ltr-value">{pm.data.expiry}</span>,
                      },
                      {
                        key: 'owner',
                        label: t('money.ownerName'),
                        children: <span dir="auto">{pm.data.ownerName || '—'}</span>,
                      },
                    ]
                  : [
                      { key: 'kind', label: t('money.methodKind'), children: t('money.masav') },
                      {
                        key: 'bank',
                        label: t('money.bank'),
                        children: `${pm.data.bankCode} ${pm.data.bankCode ? (ISRAELI_BANKS[pm.data.bankCode]?.[lang] ?? '') : ''}`,
                      },
                      {
                        key: 'branch',
                        label: t('money.branch'),
                        children: <span className="ltr-value">{pm.data.branchMasked}</span>,
                      },
                      {
                        key: 'account',
                        label: t('money.account'),
                        children: <span className="ltr-value">{pm.data.accountMasked}</span>,
                      },
                      {
                        key: 'ownerId',
                        label: t('money.ownerId'),
                        children: <span className="ltr-value">{pm.data.ownerIdMasked}</span>,
                      },
                      {
                        key: 'owner',
                        label: t('money.ownerName'),
                        children: <span dir="auto">{pm.data.ownerName}</span>,
                      },
                      { key: 'authExpiry', label: t('money.authExpiry'), children: fmt.date(pm.data.authExpiry) },
                      {
                        key: 'limit',
                        label: t('money.chargeLimit'),
                        children: pm.data.chargeLimit ? fmt.money(pm.data.chargeLimit) : t('money.noLimit'),
                      },
                    ]
              }
            />
            {canEdit && (
              <Popconfirm
                title={t('money.deleteMethodConfirm')}
                okText={t('common.delete')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={async () => {
                  try {
                    await del.mutateAsync(pm.data!.id);
                  } catch (e) {
                    message.error(errorText(t, e));
                  }
                }}
              >
                <Button danger icon={<DeleteOutlined />}>
                  {t('money.deleteMethod')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        ) : !canEdit ? (
          <Empty description={t('money.noMethod')} />
        ) : (
          <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} style={{ maxInlineSize: 560 }}>
            <Form.Item label={t('money.methodKind')}>
              <Radio.Group value={kind} onChange={(e) => setKind(e.target.value)} optionType="button">
                <Radio value="card">{t('money.card')}</Radio>
                <Radio value="masav">{t('money.masav')}</Radio>
              </Radio.Group>
            </Form.Item>
            {kind === 'card' ? (
              <>
                <Form.Item
                  name="number"
                  label={t('money.cardNumber')}
                  rules={[{ required: true, message: t('validation.required') }]}
                >
                  <Input dir="ltr" inputMode="numeric" autoComplete="cc-number" data-testid="pm-card-number" />
                </Form.Item>
                <Space wrap>
                  <Form.Item
                    name="expiry"
                    label={t('money.cardExpiry')}
                    rules={[
                      { required: true, pattern: /^\d{2}\/\d{2}$/, message: t('errors.INVALID_EXPIRATION_DATE') },
                    ]}
                  >
                    <Input dir="ltr" placeholder="MM/YY" style={{ inlineSize: 110 }} data-testid="pm-card-expiry" />
                  </Form.Item>
                  <Form.Item
                    name="cvv"
                    label={t('money.cvv')}
                    rules={[{ required: true, pattern: /^\d{3,4}$/, message: t('validation.invalid') }]}
                  >
                    <Input dir="ltr" inputMode="numeric" style={{ inlineSize: 90 }} data-testid="pm-card-cvv" />
                  </Form.Item>
                </Space>
              </>
            ) : (
              <>
                <Form.Item
                  name="bankCode"
                  label={t('money.bank')}
                  rules={[{ required: true, message: t('validation.required') }]}
                >
                  <Select
                    showSearch
                    optionFilterProp="label"
                    options={Object.entries(ISRAELI_BANKS).map(([code, n]) => ({
                      value: code,
                      label: `${code} ${n[lang]}`,
                    }))}
                  />
                </Form.Item>
                <Space wrap>
                  <Form.Item
                    name="branch"
                    label={t('money.branch')}
                    rules={[{ required: true, pattern: /^\d{1,3}$/, message: t('validation.invalidBranch') }]}
                  >
                    <Input dir="ltr" inputMode="numeric" style={{ inlineSize: 100 }} />
                  </Form.Item>
                  <Form.Item
                    name="account"
                    label={t('money.account')}
                    rules={[{ required: true, pattern: /^\d{2,9}$/, message: t('validation.invalidAccount') }]}
                  >
                    <Input dir="ltr" inputMode="numeric" style={{ inlineSize: 160 }} />
                  </Form.Item>
                </Space>
                <Space wrap>
                  <Form.Item name="authExpiry" label={t('money.authExpiry')}>
                    <DatePicker format="DD/MM/YYYY" />
                  </Form.Item>
                  <Form.Item name="chargeLimit" label={t('money.chargeLimit')}>
                    <MoneyInput symbol={club.currencySymbol} nullable />
                  </Form.Item>
                </Space>
              </>
            )}
            <Space wrap>
              <Form.Item
                name="ownerId"
                label={t('money.ownerId')}
                rules={kind === 'masav' ? [{ required: true, message: t('validation.required') }] : []}
              >
                <Input dir="ltr" inputMode="numeric" style={{ inlineSize: 150 }} />
              </Form.Item>
              <Form.Item
                name="ownerName"
                label={t('money.ownerName')}
                rules={kind === 'masav' ? [{ required: true, message: t('validation.required') }] : []}
              >
                <Input dir="auto" style={{ inlineSize: 220 }} />
              </Form.Item>
            </Space>
            {error && <Alert type="error" showIcon message={error} style={{ marginBlockEnd: 16 }} />}
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="pm-save">
              {t('common.save')}
            </Button>
          </Form>
        )}
      </div>
    </QueryState>
  );
}
