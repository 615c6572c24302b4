import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Statistic,
  Tabs,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import {
  contract,
  ISRAELI_BANKS,
  LicenseRequestFields,
  MAX_REFERENCE_FILE_BYTES,
  MIN_TRANSFER_LICENSES,
  fromMinor,
  toMinor,
} from '@venue/domain';
import { api, ApiError } from '../../platform/api/apiClient';
import { readSession } from '../../platform/auth/authStorage';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { QueryState } from '../../shared/QueryState';
import { errorText, validationText } from '../../shared/errors';
import { useMoneyFormat } from './format';
import { LicenseBilling } from './LicenseBilling';
import { useToast } from '../../shared/toast/ToastProvider';
import { ListTable } from '../../shared/CardList';

interface LicenseRequestRow {
  id: number;
  quantity: number;
  amount: number;
  transferDate: string;
  reference: string;
  bankCode: string;
  accountMasked: string;
  fileName: string;
  status: number;
  createdAt: string;
  expectedLoadDate: string | null;
  reason: string | null;
}
const STATUS_COLOR: Record<number, string> = { 1: 'gold', 2: 'green', 3: 'red', 4: 'default', 5: 'default' };
const ACCEPT = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';

/** Multipart POST of the bank-transfer request (fields + the reference file). */
async function sendTransferRequest(fields: Record<string, string>, file: File): Promise<LicenseRequestRow> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append('file', file, file.name);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const s = readSession();
  if (s?.token) headers.Authorization = `Bearer ${s.token}`;
  if (s?.externalClubId != null) headers.clubExternalId = String(s.externalClubId);
  const xsrf = document.cookie
    .split('; ')
    .find((c) => c.startsWith('XSRF-TOKEN='))
    ?.slice('XSRF-TOKEN='.length);
  if (xsrf) headers['X-XSRF-TOKEN'] = decodeURIComponent(xsrf);
  const res = await fetch('/api/AddLicensesRequest/HandleAddLicensesRequest', { method: 'POST', body: fd, headers });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, body.code ?? 'GENERAL_ERROR', body.message ?? '', body.details ?? []);
  return body as LicenseRequestRow;
}

/**
 * License purchase (seed 000 §2 "license purchase by card or by bank
 * transfer with a requests list"; seed 001 §5 validation, §8 messages).
 */
export function LicensesPage() {
  const { t } = useTranslation();
  const { club } = useSessionData();
  const price = useQuery({
    queryKey: ['licenses', 'price'],
    queryFn: () => api.call(contract.licenses.price),
  });
  const current = useQuery({
    queryKey: ['licenses', 'club'],
    queryFn: () => api.call(contract.club.current),
  });
  return (
    <div data-testid="licenses-page">
      <div className="page-header">
        <Typography.Title level={2}>{t('licenses.title')}</Typography.Title>
      </div>
      <Space wrap size="large" style={{ marginBlockEnd: 16 }}>
        <Card size="small">
          <Statistic title={t('licenses.left')} value={current.data?.licancesAmount ?? club.licancesAmount} />
        </Card>
        <Card size="small">
          <Statistic
            title={t('licenses.price')}
            value={fromMinor(price.data?.price ?? 0)}
            precision={2}
            prefix={club.currencySymbol}
          />
        </Card>
      </Space>
      <LicenseBilling />
      <Card>
        <Tabs
          items={[
            { key: 'card', label: t('licenses.byCard'), children: <BuyByCard price={price.data?.price ?? 0} /> },
            {
              key: 'transfer',
              label: t('licenses.byTransfer'),
              children: <TransferForm price={price.data?.price ?? 0} />,
            },
            { key: 'requests', label: t('licenses.requests'), children: <RequestsList /> },
          ]}
        />
      </Card>
    </div>
  );
}

function BuyByCard({ price }: { price: number }) {
  const { t } = useTranslation();
  const message = useToast();
  const { club } = useSessionData();
  const fmt = useMoneyFormat();
  const [qty, setQty] = useState(50);
  const [form] = Form.useForm<{ email: string; customerName: string }>();
  const link = useMutation({
    mutationFn: (b: { email: string; customerName: string }) =>
      api.call(contract.licenses.buyLink, {
        body: {
          code: '',
          email: b.email,
          customerName: b.customerName,
          externalClubId: club.externalClubId,
          amount: qty * price,
          qty,
          type: 2,
        },
      }),
  });
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxInlineSize: 480 }}
      onFinish={async (v) => {
        try {
          const r = await link.mutateAsync(v);
          window.open(r.url, '_blank', 'noopener');
        } catch (e) {
          message.error(errorText(t, e));
        }
      }}
    >
      <Form.Item label={t('licenses.quantity')} htmlFor="license-quantity" required>
        <InputNumber id="license-quantity" min={1} max={100000} value={qty} onChange={(v) => setQty(Number(v ?? 1))} />
      </Form.Item>
      <Form.Item
        name="customerName"
        label={t('licenses.customerName')}
        rules={[{ required: true, message: t('validation.required') }]}
      >
        <Input dir="auto" />
      </Form.Item>
      <Form.Item
        name="email"
        label={t('licenses.email')}
        rules={[{ required: true, type: 'email', message: t('validation.invalidEmail') }]}
      >
        <Input dir="ltr" type="email" />
      </Form.Item>
      <Typography.Paragraph>
        {t('licenses.toPay')}: <b>{fmt.money(qty * price)}</b>
      </Typography.Paragraph>
      <Button type="primary" htmlType="submit" loading={link.isPending}>
        {t('licenses.goToPayment')}
      </Button>
    </Form>
  );
}

export interface TransferValues {
  quantity: number;
  amount: number;
  transferDate: Dayjs;
  fundsCondition: boolean;
  bankCode: string;
  branch: string;
  account: string;
  reference: string;
}

/**
 * The multipart text fields of a license request (seed 001 §5): the amount
 * typed in shekels is sent in agorot, the transfer date as YYYY-MM-DD, the
 * funds condition as 'true'/'false', empty inputs as ''.
 */
export function transferRequestFields(v: TransferValues): Record<string, string> {
  return {
    quantity: String(v.quantity ?? ''),
    amount: String(toMinor(Number(v.amount ?? 0))),
    transferDate: v.transferDate ? v.transferDate.format('YYYY-MM-DD') : '',
    fundsCondition: v.fundsCondition ? 'true' : 'false',
    bankCode: v.bankCode ?? '',
    branch: v.branch ?? '',
    account: v.account ?? '',
    reference: v.reference ?? '',
  };
}

function TransferForm({ price }: { price: number }) {
  const { t } = useTranslation();
  const message = useToast();
  const lang = useLanguage();
  const qc = useQueryClient();
  const [form] = Form.useForm<TransferValues>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const qty = Form.useWatch('quantity', form) ?? MIN_TRANSFER_LICENSES;

  const submit = async (v: TransferValues) => {
    setError(null);
    const fields = transferRequestFields(v);
    // The same schema as the server (seed 001 §5), then the amount rule.
    const parsed = LicenseRequestFields.safeParse(fields);
    const issues = parsed.success
      ? []
      : parsed.error.issues.map((i) => ({ name: [String(i.path[0])], errors: [validationText(t, i.message)] }));
    if (parsed.success && parsed.data.amount !== parsed.data.quantity * price) {
      issues.push({ name: ['amount'], errors: [validationText(t, 'amountMismatch')] });
    }
    if (!file) setFileError(t('errors.FILE_REQUIRED'));
    if (issues.length) {
      form.setFields(issues as never);
      return;
    }
    if (!file) return;
    setBusy(true);
    try {
      await sendTransferRequest(fields, file);
      message.success(t('licenses.requestSent'));
      form.resetFields();
      setFile(null);
      void qc.invalidateQueries({ queryKey: ['licenses'] });
    } catch (e) {
      if (e instanceof ApiError && e.details.length) {
        form.setFields(e.details.map((d) => ({ name: [d.path], errors: [validationText(t, d.message)] })) as never);
      }
      setError(`${t('licenses.requestFailed')} ${errorText(t, e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxInlineSize: 560 }}
      initialValues={{ quantity: MIN_TRANSFER_LICENSES }}
      onFinish={(v) => void submit(v)}
      data-testid="transfer-form"
    >
      <Space wrap>
        <Form.Item name="quantity" label={t('licenses.quantity')} required>
          <InputNumber min={1} style={{ inlineSize: 120 }} />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('licenses.transferAmount')}
          required
          extra={t('licenses.expectedAmount', { amount: fromMinor(qty * price).toFixed(2) })}
        >
          <InputNumber min={0} step={0.01} style={{ inlineSize: 160 }} />
        </Form.Item>
        <Form.Item name="transferDate" label={t('licenses.transferDate')} required>
          <DatePicker format="DD/MM/YYYY" disabledDate={(d) => d.isAfter(dayjs(), 'day')} />
        </Form.Item>
      </Space>
      <Form.Item name="bankCode" label={t('money.bank')} required>
        <Select
          showSearch
          optionFilterProp="label"
          options={Object.entries(ISRAELI_BANKS).map(([code, n]) => ({ value: code, label: `${code} ${n[lang]}` }))}
        />
      </Form.Item>
      <Space wrap>
        <Form.Item name="branch" label={t('money.branch')} required>
          <Input dir="ltr" inputMode="numeric" maxLength={3} style={{ inlineSize: 100 }} />
        </Form.Item>
        <Form.Item name="account" label={t('money.account')} required>
          <Input dir="ltr" inputMode="numeric" maxLength={20} style={{ inlineSize: 200 }} />
        </Form.Item>
        <Form.Item name="reference" label={t('licenses.reference')} required>
          <Input dir="ltr" inputMode="numeric" maxLength={30} style={{ inlineSize: 160 }} />
        </Form.Item>
      </Space>
      <ReferenceFileField error={fileError} setError={setFileError} onFile={setFile} />
      <Form.Item name="fundsCondition" valuePropName="checked">
        <Checkbox>{t('licenses.fundsCondition')}</Checkbox>
      </Form.Item>
      {error && <Alert type="error" showIcon message={error} style={{ marginBlockEnd: 16 }} />}
      <Button type="primary" htmlType="submit" loading={busy}>
        {t('licenses.sendRequest')}
      </Button>
    </Form>
  );
}

/** The transfer reference (PDF or image, at most MAX_REFERENCE_FILE_BYTES), checked when chosen. */
function ReferenceFileField({
  error,
  setError,
  onFile,
}: {
  error: string | null;
  setError: (e: string | null) => void;
  onFile: (f: File | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item
      label={t('licenses.referenceFile')}
      required
      validateStatus={error ? 'error' : undefined}
      help={error ?? t('licenses.fileHint')}
    >
      <Upload
        accept={ACCEPT}
        maxCount={1}
        beforeUpload={(f) => {
          setError(null);
          if (f.size > MAX_REFERENCE_FILE_BYTES) {
            setError(t('errors.FILE_TOO_LARGE'));
            return Upload.LIST_IGNORE;
          }
          if (!/\.(pdf|jpe?g|png)$/i.test(f.name)) {
            setError(t('errors.UNSUPPORTED_FILE_TYPE'));
            return Upload.LIST_IGNORE;
          }
          onFile(f);
          return false;
        }}
        onRemove={() => onFile(null)}
      >
        <Button icon={<UploadOutlined />}>{t('licenses.chooseFile')}</Button>
      </Upload>
    </Form.Item>
  );
}

function RequestsList() {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  const q = useQuery({
    queryKey: ['licenses', 'requests'],
    queryFn: () => api.call(contract.licenses.list, { query: { licenseType: 1 } }),
  });
  return (
    <QueryState loading={q.isPending} error={q.error} onRetry={() => void q.refetch()}>
      <ListTable<LicenseRequestRow>
        size="small"
        rowKey="id"
        dataSource={q.data ?? []}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('licenses.noRequests') }}
        columns={[
          { key: 'at', title: t('money.at'), render: (_, r) => fmt.date(r.createdAt.slice(0, 10)) },
          { key: 'qty', title: t('licenses.quantity'), dataIndex: 'quantity' },
          { key: 'amount', title: t('licenses.transferAmount'), align: 'end', render: (_, r) => fmt.money(r.amount) },
          { key: 'date', title: t('licenses.transferDate'), render: (_, r) => fmt.date(r.transferDate) },
          {
            key: 'ref',
            title: t('licenses.reference'),
            render: (_, r) => <span className="ltr-value">{r.reference}</span>,
          },
          { key: 'file', title: t('licenses.referenceFile'), render: (_, r) => <span dir="auto">{r.fileName}</span> },
          {
            key: 'status',
            title: t('money.status'),
            render: (_, r) => (
              <span data-testid={`license-request-status-${r.id}`}>
                <Tag color={STATUS_COLOR[r.status]}>{t(`licenses.status.${r.status}`)}</Tag>
                {r.reason && <Typography.Text type="secondary">{r.reason}</Typography.Text>}
              </span>
            ),
          },
          {
            key: 'expected',
            // Seed 000 §9: a transfer loads within 3 Israeli business days (server: business-days.ts).
            title: t('licenses.expectedLoad'),
            render: (_, r) =>
              r.expectedLoadDate ? (
                <span data-testid={`license-request-expected-${r.id}`}>{fmt.date(r.expectedLoadDate)}</span>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </QueryState>
  );
}
