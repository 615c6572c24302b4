import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Form,
  Grid,
  Input,
  InputNumber,
  Progress,
  Select,
  Space,
  Tabs,
  Tag,
  Typography,
  Upload,
  type TableColumnsType,
} from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import { AutoRenewSettings, contract, HashavshevetDetails, MasavSettings } from '@venue/domain';
import type { z } from 'zod';
import { api, ApiError } from '../../platform/api/apiClient';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { ListTable } from '../../shared/CardList';
import { errorText, validationText } from '../../shared/errors';
import { downloadFile } from '../../shared/download';
import { uploadFile, UploadError } from '../../shared/upload';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { useToast } from '../../shared/toast/ToastProvider';
import { moneyText } from '../client-money/format';
import { InvoiceMailTab } from './InvoiceMailTab';
import { useFormat } from '../../shared/useFormat';

/** The translated text of an error: a field message of the server (`validation.<key>`) before the code's. */
function problemText(t: ReturnType<typeof useTranslation>['t'], e: unknown): string {
  const details = e instanceof UploadError ? e.rawDetails : e instanceof ApiError ? e.details : undefined;
  const first = Array.isArray(details) ? (details[0] as { message?: unknown } | undefined)?.message : undefined;
  if (typeof first === 'string' && first) return validationText(t, first);
  return errorText(t, e);
}

/** What reading the bank's MASAV return file answers (POST /api/MasavFile/Return). */
interface ReturnResult {
  collected: number;
  collectedAmount: number;
  rejected: number;
  rejectedAmount: number;
}

/** Uploads the bank's MASAV return file (the console's one multipart upload, shared/upload.ts). */
const sendReturnFile = (file: File) => uploadFile<ReturnResult>('/MasavFile/Return', file);

const TABS = ['files', 'masav', 'accounting', 'renewal', 'mail'] as const;
type Tab = (typeof TABS)[number];

/**
 * Money settings (issue 18; docs/money.md): MASAV files (create for a value
 * date, test mode, list, download, read the bank's return file), the MASAV
 * institution, the Hashavshevet accounts and export, and automatic renewal
 * (settings and "run now"). Route /management/app-settings/money (?tab=files|masav|accounting|renewal|mail).
 */
export function MoneySettingsPage() {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const [params, setParams] = useSearchParams();
  const tab = TABS.includes(params.get('tab') as Tab) ? (params.get('tab') as Tab) : 'files';
  const choose = (k: string) => setParams({ tab: k }, { replace: true });
  const label = (k: Tab) => t(`moneySettings.tabs.${k}`);
  return (
    <div data-testid="money-settings-page">
      <div className="page-header">
        <Typography.Title level={2}>{t('moneySettings.title')}</Typography.Title>
      </div>
      <Card>
        <Tabs
          activeKey={tab}
          onChange={choose}
          destroyOnHidden
          // On a phone the four sections are a list to choose from: the tab bar would not fit.
          renderTabBar={
            screens.md
              ? undefined
              : () => (
                  <Select
                    value={tab}
                    onChange={choose}
                    style={{ inlineSize: '100%', marginBlockEnd: 16 }}
                    options={TABS.map((k) => ({ value: k, label: label(k) }))}
                    aria-label={t('moneySettings.title')}
                    data-testid="money-section"
                  />
                )
          }
          items={[
            { key: 'files', label: label('files'), children: <MasavFiles /> },
            { key: 'masav', label: label('masav'), children: <MasavSettingsForm /> },
            { key: 'accounting', label: label('accounting'), children: <AccountingTab /> },
            { key: 'renewal', label: label('renewal'), children: <RenewalTab /> },
            { key: 'mail', label: label('mail'), children: <InvoiceMailTab /> },
          ]}
        />
      </Card>
    </div>
  );
}

type MasavFileRow = Awaited<ReturnType<typeof api.call<typeof contract.masav.list>>>[number];

/** The MASAV files table's columns. */
function fileColumns(
  t: ReturnType<typeof useTranslation>['t'],
  symbol: string,
  download: (id: number) => void,
  fmt: ReturnType<typeof useFormat>,
): TableColumnsType<MasavFileRow> {
  return [
    { title: t('moneySettings.serial'), dataIndex: 'serial' },
    {
      title: t('moneySettings.valueDate'),
      dataIndex: 'valueDate',
      render: (v: string) => <span className="ltr-value">{fmt.date(v)}</span>,
    },
    {
      title: t('moneySettings.createdAt'),
      dataIndex: 'createdAt',
      render: (v: string) => <span className="ltr-value">{fmt.dateTime(v)}</span>,
    },
    { title: t('moneySettings.count'), dataIndex: 'count' },
    {
      title: t('moneySettings.total'),
      dataIndex: 'total',
      render: (v: number) => moneyText(v, symbol),
    },
    {
      title: t('moneySettings.status'),
      key: 'status',
      render: (_: unknown, r) => (
        <Space size={4} wrap>
          {r.testMode && <Tag color="gold">{t('moneySettings.test')}</Tag>}
          {r.returnedAt ? (
            <Tag color="green">{t('moneySettings.returned')}</Tag>
          ) : (
            !r.testMode && <Tag color="blue">{t('moneySettings.inCollection')}</Tag>
          )}
        </Space>
      ),
    },
    {
      title: '',
      key: 'download',
      render: (_: unknown, r) => (
        <Button size="small" icon={<DownloadOutlined />} onClick={() => download(r.id)}>
          {t('moneySettings.download')}
        </Button>
      ),
    },
  ];
}

function MasavFiles() {
  const { t } = useTranslation();
  const toast = useToast();
  const qc = useQueryClient();
  const { club } = useSessionData();
  const fmt = useFormat();
  const [valueDate, setValueDate] = useState<Dayjs>(dayjs().add(1, 'day'));
  const [testMode, setTestMode] = useState(true);
  const files = useQuery({ queryKey: ['masav', 'files'], queryFn: () => api.call(contract.masav.list) });
  const create = useMutation({
    mutationFn: () =>
      api.call(contract.masav.create, { query: { testMode, valueDate: valueDate.format('YYYY-MM-DD') } }),
    onSuccess: (f) => {
      toast.success(t('moneySettings.fileCreated', { count: f.count, total: moneyText(f.total, club.currencySymbol) }));
      void qc.invalidateQueries({ queryKey: ['masav', 'files'] });
    },
    onError: (e) => toast.error(problemText(t, e)),
  });
  const readReturn = useMutation({
    mutationFn: sendReturnFile,
    onSuccess: (r) => {
      toast.success(
        t('moneySettings.returnRead', {
          collected: r.collected,
          collectedAmount: moneyText(r.collectedAmount, club.currencySymbol),
          rejected: r.rejected,
          rejectedAmount: moneyText(r.rejectedAmount, club.currencySymbol),
        }),
      );
      void qc.invalidateQueries({ queryKey: ['masav', 'files'] });
    },
    onError: (e) => toast.error(problemText(t, e)),
  });
  const download = async (id: number) => {
    try {
      await downloadFile(`/MasavFile/Download/${id}`, {}, `masav-${id}.msv`);
    } catch (e) {
      toast.error(problemText(t, e));
    }
  };
  return (
    <Space direction="vertical" size="middle" style={{ inlineSize: '100%' }}>
      <Space wrap align="end">
        <Form.Item label={t('moneySettings.valueDate')} style={{ marginBottom: 0 }}>
          <DatePicker
            value={valueDate}
            onChange={(d) => d && setValueDate(d)}
            format="DD/MM/YYYY"
            allowClear={false}
            data-testid="masav-value-date"
          />
        </Form.Item>
        <Checkbox checked={testMode} onChange={(e) => setTestMode(e.target.checked)} data-testid="masav-test-mode">
          {t('moneySettings.testMode')}
        </Checkbox>
        <Button type="primary" loading={create.isPending} onClick={() => create.mutate()} data-testid="masav-create">
          {t('moneySettings.createFile')}
        </Button>
        <Upload
          accept=".msv,.txt,.dat,application/octet-stream,text/plain"
          showUploadList={false}
          beforeUpload={(file) => {
            readReturn.mutate(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={readReturn.isPending} data-testid="masav-return">
            {t('moneySettings.readReturn')}
          </Button>
        </Upload>
      </Space>
      <ListTable<MasavFileRow>
        rowKey="id"
        size="small"
        loading={files.isLoading}
        dataSource={files.data ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: t('moneySettings.noFiles') }}
        columns={fileColumns(t, club.currencySymbol, (id) => void download(id), fmt)}
      />
    </Space>
  );
}

function MasavSettingsForm() {
  const { t } = useTranslation();
  const toast = useToast();
  const qc = useQueryClient();
  const current = useQuery({ queryKey: ['masav', 'settings'], queryFn: () => api.call(contract.masav.settings) });
  const f = useSchemaForm<z.input<typeof MasavSettings>, typeof MasavSettings>({
    schema: MasavSettings,
    submit: (body) => api.call(contract.masav.saveSettings, { body }),
    onSaved: () => {
      toast.success(t('moneySettings.saved'));
      void qc.invalidateQueries({ queryKey: ['masav', 'settings'] });
    },
  });
  if (current.isLoading) return null;
  return (
    <Form
      form={f.form}
      layout="vertical"
      style={{ maxInlineSize: 480 }}
      initialValues={current.data ?? { institutionCode: '', sendingInstitution: '', institutionName: '' }}
      onFinish={f.onFinish}
      onFinishFailed={f.onFinishFailed}
      data-testid="masav-settings-form"
    >
      {f.rootError && <Alert type="error" showIcon message={f.rootError} style={{ marginBlockEnd: 12 }} />}
      <Form.Item
        name="institutionCode"
        label={t('moneySettings.institutionCode')}
        extra={t('moneySettings.institutionCodeHelp')}
      >
        <Input dir="ltr" inputMode="numeric" maxLength={8} />
      </Form.Item>
      <Form.Item name="sendingInstitution" label={t('moneySettings.sendingInstitution')}>
        <Input dir="ltr" inputMode="numeric" maxLength={5} />
      </Form.Item>
      <Form.Item name="institutionName" label={t('moneySettings.institutionName')}>
        <Input dir="auto" maxLength={30} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={f.saving}>
        {t('moneySettings.save')}
      </Button>
    </Form>
  );
}

const ACCOUNT_FIELDS = [
  'cashAccount',
  'creditAccount',
  'masavAccount',
  'bankAccount',
  'incomeAccount',
  'vatAccount',
] as const;

function AccountingTab() {
  const { t } = useTranslation();
  const toast = useToast();
  const qc = useQueryClient();
  const { club } = useSessionData();
  const current = useQuery({
    queryKey: ['accounting', 'hashavshevet'],
    queryFn: () => api.call(contract.accounting.hashavshevet),
  });
  const f = useSchemaForm<z.input<typeof HashavshevetDetails>, typeof HashavshevetDetails>({
    schema: HashavshevetDetails,
    submit: (body) => api.call(contract.accounting.updateHashavshevet, { params: { id: club.id }, body }),
    onSaved: () => {
      toast.success(t('moneySettings.saved'));
      void qc.invalidateQueries({ queryKey: ['accounting', 'hashavshevet'] });
    },
  });
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().startOf('month'), dayjs()]);
  const [busy, setBusy] = useState(false);
  const exportDat = async () => {
    setBusy(true);
    try {
      const body = { from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD') };
      await downloadFile('/Report/WriteMoveinDat', { body }, 'MOVEIN.DAT');
      await downloadFile('/Report/MoveinPrm', {}, 'MOVEIN.PRM');
    } catch (e) {
      toast.error(problemText(t, e));
    } finally {
      setBusy(false);
    }
  };
  if (current.isLoading) return null;
  return (
    <Space direction="vertical" size="large" style={{ inlineSize: '100%' }}>
      <Form
        form={f.form}
        layout="vertical"
        style={{ maxInlineSize: 560 }}
        initialValues={current.data ?? { movementType: '1', branch: '' }}
        onFinish={f.onFinish}
        onFinishFailed={f.onFinishFailed}
        data-testid="accounting-form"
      >
        <Typography.Paragraph type="secondary">{t('moneySettings.accountsHelp')}</Typography.Paragraph>
        {f.rootError && <Alert type="error" showIcon message={f.rootError} style={{ marginBlockEnd: 12 }} />}
        {ACCOUNT_FIELDS.map((k) => (
          <Form.Item key={k} name={k} label={t(`moneySettings.${k}`)}>
            <Input dir="ltr" maxLength={15} />
          </Form.Item>
        ))}
        <Space wrap>
          <Form.Item name="movementType" label={t('moneySettings.movementType')}>
            <Input dir="ltr" maxLength={3} style={{ inlineSize: 100 }} />
          </Form.Item>
          <Form.Item name="branch" label={t('moneySettings.branch')}>
            <Input dir="ltr" maxLength={3} style={{ inlineSize: 100 }} />
          </Form.Item>
        </Space>
        <div>
          <Button type="primary" htmlType="submit" loading={f.saving}>
            {t('moneySettings.save')}
          </Button>
        </div>
      </Form>
      <Card size="small" title={t('moneySettings.export')}>
        <Space wrap>
          <DatePicker.RangePicker
            value={range}
            format="DD/MM/YYYY"
            allowClear={false}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Button
            icon={<DownloadOutlined />}
            loading={busy}
            onClick={() => void exportDat()}
            data-testid="movein-export"
          >
            {t('moneySettings.exportMovein')}
          </Button>
        </Space>
      </Card>
    </Space>
  );
}

type RenewalValues = z.input<typeof AutoRenewSettings> & { daysBefore: number; daysAfter: number };

function RenewalTab() {
  const { t } = useTranslation();
  const toast = useToast();
  const qc = useQueryClient();
  const { club } = useSessionData();
  const settings = useQuery({
    queryKey: ['autoRenew', 'settings'],
    queryFn: () => api.call(contract.subscriptions.settings),
  });
  const current = useQuery({
    queryKey: ['club', 'current', 'renewal'],
    queryFn: () => api.call(contract.club.current),
  });
  const f = useSchemaForm<RenewalValues, typeof AutoRenewSettings>({
    schema: AutoRenewSettings,
    toInput: ({ daysBefore: _b, daysAfter: _a, ...rest }) => ({ ...rest, lastDayOfMonth: rest.lastDayOfMonth ?? null }),
    submit: async (body) => {
      const v = f.form.getFieldsValue();
      await api.call(contract.club.update, {
        params: { id: club.id },
        body: { autoRenewDaysBefore: v.daysBefore ?? 0, autoRenewDaysAfter: v.daysAfter ?? 0 },
      });
      return api.call(contract.subscriptions.saveSettings, { body });
    },
    onSaved: () => {
      toast.success(t('moneySettings.saved'));
      void qc.invalidateQueries({ queryKey: ['autoRenew'] });
    },
  });
  const run = useMutation({
    mutationFn: () => api.call(contract.subscriptions.runAutoRenew),
    onSuccess: () => toast.success(t('moneySettings.renewalDone')),
    onError: (e) => toast.error(problemText(t, e)),
  });
  if (settings.isLoading || current.isLoading) return null;
  const s = settings.data;
  const c = current.data as { autoRenewDaysBefore?: number; autoRenewDaysAfter?: number } | undefined;
  return (
    <Space direction="vertical" size="large" style={{ inlineSize: '100%' }}>
      <Form
        form={f.form}
        layout="vertical"
        style={{ maxInlineSize: 560 }}
        initialValues={{
          method: s?.method ?? 1,
          lastDayOfMonth: s?.lastDayOfMonth ?? null,
          lastDayTreatment: s?.lastDayTreatment ?? 'nextMonth',
          daysBefore: c?.autoRenewDaysBefore ?? 0,
          daysAfter: c?.autoRenewDaysAfter ?? 0,
        }}
        onFinish={f.onFinish}
        onFinishFailed={f.onFinishFailed}
        data-testid="renewal-form"
      >
        {f.rootError && <Alert type="error" showIcon message={f.rootError} style={{ marginBlockEnd: 12 }} />}
        <Form.Item name="method" label={t('moneySettings.renewMethod')}>
          <Select
            options={[1, 2, 3].map((m) => ({ value: m, label: t(`moneySettings.renewMethods.${m}`) }))}
            data-testid="renew-method"
          />
        </Form.Item>
        <Space wrap>
          <Form.Item name="daysBefore" label={t('moneySettings.daysBefore')}>
            <InputNumber min={0} max={365} />
          </Form.Item>
          <Form.Item name="daysAfter" label={t('moneySettings.daysAfter')}>
            <InputNumber min={0} max={365} />
          </Form.Item>
        </Space>
        <Space wrap>
          <Form.Item
            name="lastDayOfMonth"
            label={t('moneySettings.lastDayOfMonth')}
            extra={t('moneySettings.lastDayHelp')}
          >
            <InputNumber min={1} max={31} />
          </Form.Item>
          <Form.Item name="lastDayTreatment" label={t('moneySettings.lastDayTreatment')}>
            <Select
              style={{ minInlineSize: 220 }}
              options={['nextMonth', 'remainderAndNext'].map((v) => ({
                value: v,
                label: t(`moneySettings.treatments.${v}`),
              }))}
            />
          </Form.Item>
        </Space>
        <div>
          <Button type="primary" htmlType="submit" loading={f.saving}>
            {t('moneySettings.save')}
          </Button>
        </div>
      </Form>
      <Card size="small" title={t('moneySettings.runNow')}>
        <Space direction="vertical" style={{ inlineSize: '100%' }}>
          <Button onClick={() => run.mutate()} loading={run.isPending} data-testid="renew-run">
            {t('moneySettings.runNow')}
          </Button>
          {(run.isPending || run.data) && (
            <Progress
              percent={run.isPending ? 60 : 100}
              status={run.isPending ? 'active' : 'success'}
              showInfo={!run.isPending}
              data-testid="renew-progress"
            />
          )}
          {run.data && (
            <Typography.Text data-testid="renew-result">{t('moneySettings.renewResult', run.data)}</Typography.Text>
          )}
        </Space>
      </Card>
    </Space>
  );
}
