import { useState } from 'react';
import { Button, DatePicker, Descriptions, Empty, Form, Input, Popconfirm, Radio, Select, Space } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ISRAELI_BANKS, PaymentMethodInput } from '@venue/domain';
import { QueryState } from '../../shared/QueryState';
import { MoneyInput } from '../../shared/MoneyInput';
import { errorText } from '../../shared/errors';
import { FormRootError } from '../../shared/forms/FormDrawer';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { useMoneyFormat } from './format';
import {
  paymentMethodBody,
  paymentMethodField,
  type PaymentMethodFormValues,
  type PaymentMethodKind,
} from './paymentMethodForm';
import { useDeletePaymentMethod, usePaymentMethod, useSavePaymentMethod } from './useMoney';
import type { MoneyTabProps } from './moneyTab';
import { useToast } from '../../shared/toast/ToastProvider';

type PaymentMethodRecord = NonNullable<ReturnType<typeof usePaymentMethod>['data']>;

/**
 * The client's payment method (seed 001 §3): a card (sent to the clearing
 * provider, only the last four kept) or a MASAV bank authorization. One per
 * client: replacing means deleting first.
 */
export function PaymentMethodTab({ clientId, canEdit }: MoneyTabProps) {
  const { t } = useTranslation();
  const pm = usePaymentMethod(clientId);
  return (
    <QueryState loading={pm.isPending} error={pm.error} onRetry={() => void pm.refetch()}>
      <div data-testid="money-payment-method">
        {pm.data ? (
          <PaymentMethodView clientId={clientId} method={pm.data} canEdit={canEdit} />
        ) : !canEdit ? (
          <Empty description={t('money.noMethod')} />
        ) : (
          <PaymentMethodForm clientId={clientId} />
        )}
      </div>
    </QueryState>
  );
}

/** The stored method, masked (last four digits, masked branch, account and ID); editors may delete it. */
function PaymentMethodView({
  clientId,
  method,
  canEdit,
}: {
  clientId: number;
  method: PaymentMethodRecord;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const message = useToast();
  const lang = useLanguage();
  const fmt = useMoneyFormat();
  const del = useDeletePaymentMethod(clientId);
  return (
    <Space orientation="vertical" size="middle" style={{ inlineSize: '100%' }}>
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, sm: 2 }}
        items={
          method.kind === 'card'
            ? [
                { key: 'kind', label: t('money.methodKind'), children: t('money.card') },
                {
                  key: 'number',
                  label: t('money.cardNumber'),
                  children: <span className="ltr-value">{`${method.brand ?? ''} ···· ${method.lastFour}`}</span>,
                },
                {
                  key: 'expiry',
                  label: t('money.cardExpiry'),
                  children: <span className="ltr-value">{method.expiry}</span>,
                },
                {
                  key: 'owner',
                  label: t('money.ownerName'),
                  children: <span dir="auto">{method.ownerName || '—'}</span>,
                },
              ]
            : [
                { key: 'kind', label: t('money.methodKind'), children: t('money.masav') },
                {
                  key: 'bank',
                  label: t('money.bank'),
                  children: `${method.bankCode} ${method.bankCode ? (ISRAELI_BANKS[method.bankCode]?.[lang] ?? '') : ''}`,
                },
                {
                  key: 'branch',
                  label: t('money.branch'),
                  children: <span className="ltr-value">{method.branchMasked}</span>,
                },
                {
                  key: 'account',
                  label: t('money.account'),
                  children: <span className="ltr-value">{method.accountMasked}</span>,
                },
                {
                  key: 'ownerId',
                  label: t('money.ownerId'),
                  children: <span className="ltr-value">{method.ownerIdMasked}</span>,
                },
                {
                  key: 'owner',
                  label: t('money.ownerName'),
                  children: <span dir="auto">{method.ownerName}</span>,
                },
                { key: 'authExpiry', label: t('money.authExpiry'), children: fmt.date(method.authExpiry) },
                {
                  key: 'limit',
                  label: t('money.chargeLimit'),
                  children: method.chargeLimit ? fmt.money(method.chargeLimit) : t('money.noLimit'),
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
              await del.mutateAsync(method!.id);
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
  );
}

/** A new card or MASAV authorization, validated with PaymentMethodInput. */
function PaymentMethodForm({ clientId }: { clientId: number }) {
  const { t } = useTranslation();
  const message = useToast();
  const save = useSavePaymentMethod(clientId);
  const [kind, setKind] = useState<PaymentMethodKind>('card');
  const { form, onFinish, rootError, saving } = useSchemaForm({
    schema: PaymentMethodInput,
    toInput: (v: PaymentMethodFormValues) => paymentMethodBody(kind, clientId, v),
    submit: (body) => save.mutateAsync(body),
    onSaved: () => {
      message.success(t('money.methodSaved'));
      form.resetFields();
    },
    fieldName: paymentMethodField,
  });
  return (
    <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)} style={{ maxInlineSize: 560 }}>
      <Form.Item label={t('money.methodKind')}>
        <Radio.Group value={kind} onChange={(e) => setKind(e.target.value)} optionType="button">
          <Radio value="card">{t('money.card')}</Radio>
          <Radio value="masav">{t('money.masav')}</Radio>
        </Radio.Group>
      </Form.Item>
      {kind === 'card' ? <CardFields /> : <MasavFields />}
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
      <FormRootError message={rootError} />
      <Button type="primary" htmlType="submit" loading={saving} data-testid="pm-save">
        {t('common.save')}
      </Button>
    </Form>
  );
}

/** Card number, expiry (MM/YY) and CVV. */
function CardFields() {
  const { t } = useTranslation();
  return (
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
          rules={[{ required: true, pattern: /^\d{2}\/\d{2}$/, message: t('errors.INVALID_EXPIRATION_DATE') }]}
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
  );
}

/** Bank, branch, account, authorization end and charge limit (agorot). */
function MasavFields() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();
  return (
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
  );
}
