import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Select, Statistic, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ENTRANCE_STATUSES,
  formatMinor,
  isoDate,
  JERUSALEM,
  localParts,
  PaymentMethod,
  PAYMENT_METHOD_BEATS,
  PurchaseItemType,
  REASON_KEYS,
  REPORTS,
  STATUS_COLOR_HEX,
  type Period,
  type ReportColumnMeta,
  type ReportFilterKey,
  type ReportId,
  type ReportMeta,
  type ReportQuery,
  type ReportResult,
  type ReportValueType,
} from '@venue/domain';
import { api, type Page } from '../../app/api/apiClient';
import { useSessionData } from '../../app/auth/AuthProvider';
import { useCan } from '../../app/auth/useCan';
import { useLanguage } from '../../app/i18n/LocaleProvider';
import { useLiveMessages } from '../../app/live/LiveProvider';
import { DataGrid, DEFAULT_PAGE_SIZE, type GridColumn } from '../../shared/DataGrid';
import { downloadFile } from '../../shared/download';
import { useGridState } from '../../shared/gridState';
import { useViewport } from '../../shared/useMediaQuery';
import './reports.css';
import { StatusTag } from '../../shared/StatusTag';
import { periodToFilter, ReportFilterBar, type PeriodValue } from '../../reports/ReportFilterBar';
import { useTerminalList } from '../terminals/useTerminals';

type Row = Record<string, unknown>;
type Filters = Partial<Pick<ReportQuery, ReportFilterKey>>;

const PAYMENT_METHODS = [...Object.values(PaymentMethod), PAYMENT_METHOD_BEATS];
const ITEM_TYPES = Object.values(PurchaseItemType);
const QUICK_EXIT_COLOR: Record<number, string> = {
  1: 'green',
  2: 'green',
  7: 'gold',
  8: 'gold',
  9: 'default',
  6: 'red',
};
const PURCHASE_STATUS_COLOR: Record<number, string> = { 1: 'green', 2: 'gold', 3: 'red' };
/** Safer payments: awaiting the provider, charged and refunded, refund failed (money kept without a purchase), not charged. */
const SAFER_STATE_COLOR: Record<number, string> = { 1: 'gold', 2: 'blue', 3: 'red', 4: 'default' };
/** License request statuses (LicenseRequestStatus): pending, loaded, rejected, cancelled by customer, by manager. */
const LICENSE_REQUEST_COLOR: Record<number, string> = { 1: 'gold', 2: 'green', 3: 'red', 4: 'default', 5: 'default' };

/** POST /Report/<call> with the page's filter. */
function useReport(meta: ReportMeta, body: ReportQuery) {
  return useQuery({
    queryKey: ['report', meta.id, body],
    queryFn: () => api.post<ReportResult>(`/Report/${meta.call}`, body),
    placeholderData: keepPreviousData,
  });
}

/** At most this many rows are printed (then a note says to export); a page of the server holds at most 1 000. */
export const PRINT_MAX_ROWS = 5000;
const PRINT_PAGE_SIZE = 1000;

/** Every row of the report for the current filter and sort, up to {@link PRINT_MAX_ROWS}, for the print view. */
async function allRowsForPrint(meta: ReportMeta, body: ReportQuery): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; rows.length < PRINT_MAX_ROWS; page++) {
    const r = await api.post<ReportResult>(`/Report/${meta.call}`, { ...body, page, pageSize: PRINT_PAGE_SIZE });
    rows.push(...(r.items as Row[]));
    if (r.items.length < PRINT_PAGE_SIZE || rows.length >= r.total) break;
  }
  return rows.slice(0, PRINT_MAX_ROWS);
}

/** The server sort key of a column (its key, or the alias the catalogue names). */
const sortKeyOf = (c: ReportColumnMeta) => (typeof c.sortable === 'string' ? c.sortable : c.key);

/** Formats values of the report catalogue's types (money in minor units, instants in the club's zone). */
function useFormatter() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();
  const timeZone = club.location?.timeZone ?? JERUSALEM.timeZone;
  const locale = lang === 'he' ? 'he-IL' : 'en-US';
  const dt = useMemo(
    () =>
      new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'short', timeStyle: 'short', timeZone }),
    [lang, timeZone],
  );
  return (type: ReportValueType, v: unknown): ReactNode => {
    if (v == null || v === '') return type === 'money' ? '' : '—';
    switch (type) {
      case 'money':
        return (
          <span className="ltr-value">
            {club.currencySymbol}
            {formatMinor(Number(v), locale)}
          </span>
        );
      case 'datetime':
        return <span className="ltr-value">{dt.format(new Date(String(v)))}</span>;
      case 'date':
        return <span className="ltr-value">{dayjs(String(v)).format('DD/MM/YYYY')}</span>;
      case 'int':
        return Number(v).toLocaleString(locale);
      case 'entranceStatus':
        return <StatusTag status={Number(v)} />;
      case 'reason':
        return t(`reason.${REASON_KEYS[Number(v)] ?? 'unknown'}`, { defaultValue: String(v) });
      case 'paymentMethod':
        return t(`money.method_${Number(v)}`, { defaultValue: String(v) });
      case 'itemType':
        return t(`money.itemType.${Number(v)}`, { defaultValue: String(v) });
      case 'purchaseStatus':
        return (
          <Tag color={PURCHASE_STATUS_COLOR[Number(v)]} style={{ marginInlineEnd: 0 }}>
            {t(`money.paymentStatus.${Number(v)}`, { defaultValue: String(v) })}
          </Tag>
        );
      case 'minutes':
        return t('reports.minutes', { n: Number(v) });
      case 'quickExitType':
        return (
          <Tag color={QUICK_EXIT_COLOR[Number(v)] ?? 'default'} style={{ marginInlineEnd: 0 }}>
            {t(`reports.quickExitType.${Number(v)}`, { defaultValue: String(v) })}
          </Tag>
        );
      case 'activityKind':
        return t(`reports.activityKind.${Number(v)}`, { defaultValue: String(v) });
      case 'cashState':
        return t(`reports.cashState.${String(v)}`, { defaultValue: String(v) });
      case 'debtSource':
        return t(`reports.debtSource.${String(v)}`, { defaultValue: String(v) });
      case 'excessState':
        return (
          <Tag color={Number(v) === 1 ? 'gold' : 'green'} style={{ marginInlineEnd: 0 }}>
            {t(`reports.excessState.${Number(v)}`, { defaultValue: String(v) })}
          </Tag>
        );
      case 'licenseSource':
        return t(`reports.licenseSource.${Number(v)}`, { defaultValue: String(v) });
      case 'saferState':
        return (
          <Tag color={SAFER_STATE_COLOR[Number(v)] ?? 'default'} style={{ marginInlineEnd: 0 }}>
            {t(`reports.saferState.${Number(v)}`, { defaultValue: String(v) })}
          </Tag>
        );
      case 'licenseRequestStatus':
        return (
          <Tag color={LICENSE_REQUEST_COLOR[Number(v)] ?? 'default'} style={{ marginInlineEnd: 0 }}>
            {t(`licenses.status.${Number(v)}`, { defaultValue: String(v) })}
          </Tag>
        );
      case 'bool':
        return (
          <Tag color={v ? 'green' : 'red'} style={{ marginInlineEnd: 0 }}>
            {v ? t('reports.yes') : t('reports.no')}
          </Tag>
        );
      default:
        return String(v);
    }
  };
}

/** The club's "today" as the default anchor of the period. */
function initialPeriod(timeZone: string, period: Period): PeriodValue {
  const today = dayjs(isoDate(localParts(new Date(), timeZone)));
  return { period, anchor: today, range: [today.startOf('month'), today] };
}

/** The report's own filters in the filter bar. */
function OwnFilters({ meta, value, onChange }: { meta: ReportMeta; value: Filters; onChange: (f: Filters) => void }) {
  const { t } = useTranslation();
  const has = (k: ReportFilterKey) => meta.filters.includes(k);
  const terminals = useTerminalList();
  const allowed = useCan();
  const products = useQuery({
    queryKey: ['products'],
    queryFn: () => api.get<Page<{ id: number; name: string }>>('/Product', { showInactive: 'true' }),
    enabled: has('productId'),
  });
  const users = useQuery({
    queryKey: ['users'],
    queryFn: () => api.get<Page<{ id: number; name: string; username: string }>>('/User'),
    enabled: has('userId') && allowed({ edit: 'users' }),
  });
  const statusOptions =
    meta.id === 'entrances'
      ? ENTRANCE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))
      : meta.id === 'quickExits'
        ? [1, 2, 7, 8, 9].map((s) => ({ value: s, label: t(`reports.quickExitType.${s}`) }))
        : meta.id === 'purchases'
          ? [1, 2, 3].map((s) => ({ value: s, label: t(`money.paymentStatus.${s}`) }))
          : meta.id === 'excessStatus'
            ? [1, 2].map((s) => ({ value: s, label: t(`reports.excessState.${s}`) }))
            : meta.id === 'loadedLicenses'
              ? [1, 2].map((s) => ({ value: s, label: t(`reports.licenseSource.${s}`) }))
              : meta.id === 'saferPayments'
                ? [1, 2, 3, 4].map((s) => ({ value: s, label: t(`reports.saferState.${s}`) }))
                : meta.id === 'addLicensesRequests'
                  ? [1, 2, 3, 4, 5].map((s) => ({ value: s, label: t(`licenses.status.${s}`) }))
                  : [
                      { value: 1, label: t('reports.debtOpen') },
                      { value: 2, label: t('reports.debtPaid') },
                    ];
  const set = (patch: Filters) => onChange({ ...value, ...patch });
  return (
    <>
      {has('terminalId') && (
        <Select
          allowClear
          style={{ minInlineSize: 150 }}
          placeholder={t('report.allTerminals')}
          value={value.terminalId}
          onChange={(v?: number) => set({ terminalId: v })}
          options={(terminals.data?.items ?? []).map((x) => ({ value: x.id, label: x.name }))}
          data-testid="report-filter-terminal"
        />
      )}
      {has('status') && (
        <Select
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          style={{ minInlineSize: 170 }}
          placeholder={
            meta.id === 'quickExits'
              ? t('reports.allOutcomes')
              : meta.id === 'excessStatus' || meta.id === 'saferPayments'
                ? t('reports.allStates')
                : meta.id === 'loadedLicenses'
                  ? t('reports.allSources')
                  : t('report.allStatuses')
          }
          value={value.status ?? []}
          onChange={(v: number[]) => set({ status: v.length ? v : undefined })}
          options={statusOptions}
          data-testid="report-filter-status"
        />
      )}
      {has('paymentMethod') && (
        <Select
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          style={{ minInlineSize: 170 }}
          placeholder={t('reports.allMethods')}
          value={value.paymentMethod ?? []}
          onChange={(v: number[]) => set({ paymentMethod: v.length ? v : undefined })}
          options={PAYMENT_METHODS.map((m) => ({ value: m, label: t(`money.method_${m}`) }))}
          data-testid="report-filter-method"
        />
      )}
      {has('itemType') && (
        <Select
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          style={{ minInlineSize: 170 }}
          placeholder={t('reports.allItemTypes')}
          value={value.itemType ?? []}
          onChange={(v: number[]) => set({ itemType: v.length ? v : undefined })}
          options={ITEM_TYPES.map((m) => ({ value: m, label: t(`money.itemType.${m}`) }))}
          data-testid="report-filter-item-type"
        />
      )}
      {has('productId') && (
        <Select
          allowClear
          style={{ minInlineSize: 150 }}
          placeholder={t('reports.allProducts')}
          value={value.productId}
          onChange={(v?: number) => set({ productId: v })}
          options={(products.data?.items ?? []).map((x) => ({ value: x.id, label: x.name }))}
          data-testid="report-filter-product"
        />
      )}
      {has('userId') && allowed({ edit: 'users' }) && (
        <Select
          allowClear
          style={{ minInlineSize: 150 }}
          placeholder={t('reports.allUsers')}
          value={value.userId}
          onChange={(v?: number) => set({ userId: v })}
          options={(users.data?.items ?? []).map((x) => ({ value: x.id, label: x.name || x.username }))}
          data-testid="report-filter-user"
        />
      )}
      {has('success') && (
        <Select
          allowClear
          style={{ minInlineSize: 130 }}
          placeholder={t('reports.allResults')}
          value={value.success === undefined ? undefined : value.success ? 1 : 0}
          onChange={(v?: number) => set({ success: v === undefined ? undefined : v === 1 })}
          options={[
            { value: 1, label: t('reports.succeeded') },
            { value: 0, label: t('reports.failed') },
          ]}
          data-testid="report-filter-success"
        />
      )}
    </>
  );
}

/**
 * Any report of the catalogue (packages/domain reports.ts): the period and
 * the report's own filters, a grid paged and sorted on the server, the totals
 * (cards, breakdowns and a totals row), .xlsx export and print (every row of
 * the filter, up to {@link PRINT_MAX_ROWS}, not only the page shown). Column
 * layout, sort, page size and the period kind are saved per user.
 */
/**
 * `actions`: buttons of this report beside its title (e.g. "Reconcile now" on safer payments).
 * `live`: refetch when an entrance arrives on the console's live feed (at most once a second;
 * the entrance report, seed 000 §2).
 */
export function ReportPage({ id, actions, live }: { id: ReportId; actions?: ReactNode; live?: boolean }) {
  const meta: ReportMeta = REPORTS[id];
  const qc = useQueryClient();
  const lastRefetch = useRef(0);
  const pendingRefetch = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(pendingRefetch.current ?? undefined), []);
  useLiveMessages((msg) => {
    if (!live || msg.type !== 'entrance' || pendingRefetch.current) return;
    const wait = Math.max(0, lastRefetch.current + 1000 - Date.now());
    pendingRefetch.current = setTimeout(() => {
      pendingRefetch.current = null;
      lastRefetch.current = Date.now();
      void qc.invalidateQueries({ queryKey: ['report', meta.id] });
    }, wait);
  });
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();
  const fmt = useFormatter();
  const phone = useViewport() === 'phone';
  const timeZone = club.location?.timeZone ?? JERUSALEM.timeZone;
  const [grid, setGrid] = useGridState<{ period: Period }>(`report-${meta.id}`);
  const [period, setPeriod] = useState<PeriodValue>(() => initialPeriod(timeZone, grid.filters?.period ?? 'day'));
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  // The grid's own default: asking for more rows than it shows would skip rows 26-50 on page 2.
  const pageSize = grid.pageSize ?? DEFAULT_PAGE_SIZE;

  const columnsMeta = meta.columns.filter((c) => !c.field);
  const sortColumn = grid.sort ? columnsMeta.find((c) => c.key === grid.sort?.key && c.sortable) : undefined;
  const body: ReportQuery = {
    ...periodToFilter(period),
    ...filters,
    page,
    pageSize,
    lang,
    ...(sortColumn ? { sort: sortKeyOf(sortColumn), order: grid.sort?.order } : {}),
  };
  const query = useReport(meta, body);
  const data = query.data;

  const columns: GridColumn<Row>[] = columnsMeta.map((c) => ({
    key: c.key,
    title: t(`reports.col.${c.key}`),
    dataIndex: c.key,
    sortable: Boolean(c.sortable),
    align: c.type === 'money' || c.type === 'int' ? 'end' : undefined,
    responsive: c.wide ? ['md'] : undefined,
    render: (v: unknown) =>
      c.alert && Number(v) > 0 ? (
        <span style={{ color: STATUS_COLOR_HEX.failed }} data-alert="true">
          {fmt(c.type, v)}
        </span>
      ) : (
        fmt(c.type, v)
      ),
  }));

  const totalsRow: Record<string, ReactNode> = {};
  const totalsInColumns = meta.totals.some((tm) => columnsMeta.some((c) => c.key === tm.key));
  if (data && totalsInColumns) {
    for (const tm of meta.totals) {
      if (columnsMeta.some((c) => c.key === tm.key))
        totalsRow[tm.key] = <strong>{fmt(tm.type, data.totals[tm.key])}</strong>;
    }
    const first = columnsMeta[0].key;
    if (totalsRow[first] == null) totalsRow[first] = <strong>{t('reports.totals')}</strong>;
  }

  const resetPage = () => setPage(1);

  return (
    <div data-testid={`report-${meta.id}`}>
      <div className="page-header">
        <Typography.Title level={2}>{t(`nav.${meta.navKey}`)}</Typography.Title>
        {data && (
          <span className="page-subtitle ltr-value" data-testid="report-range-label">
            {data.range.from} – {data.range.to}
          </span>
        )}
        {actions}
      </div>
      <ReportFilterBar
        value={period}
        onChange={(v) => {
          setPeriod(v);
          resetPage();
          if (v.period !== period.period) setGrid((s) => ({ ...s, filters: { period: v.period } }));
        }}
      >
        <OwnFilters
          meta={meta}
          value={filters}
          onChange={(f) => {
            setFilters(f);
            resetPage();
          }}
        />
      </ReportFilterBar>
      <div className="totals-bar" data-testid="report-totals" style={{ marginBlockEnd: 12 }}>
        {meta.totals.map((tm) => (
          <Statistic
            key={tm.key}
            className={phone ? 'report-total-compact' : undefined}
            title={t(`reports.total.${tm.key}`, { defaultValue: t(`reports.col.${tm.key}`) })}
            loading={query.isPending}
            valueRender={() => (
              <span data-testid={`report-total-${tm.key}`}>{data ? fmt(tm.type, data.totals[tm.key]) : null}</span>
            )}
          />
        ))}
      </div>
      {data &&
        (meta.breakdowns ?? []).map((b) => {
          const values = data.totals[b.key];
          if (!values || typeof values !== 'object' || Object.keys(values).length === 0) return null;
          return (
            <div key={b.key} className="report-breakdown" data-testid={`report-breakdown-${b.key}`}>
              <Typography.Text type="secondary">{t(`reports.breakdown.${b.key}`)}:</Typography.Text>{' '}
              {Object.entries(values).map(([k, v]) => (
                <Tag key={k} style={{ marginBlockEnd: 4 }}>
                  {b.by === 'text' ? k || t('reports.console') : fmt(b.by, Number(k))} · {fmt(b.type, v)}
                </Tag>
              ))}
            </div>
          );
        })}
      <DataGrid<Row>
        gridId={`report-${meta.id}`}
        data-testid="report-table"
        columns={columns}
        rows={data?.items ?? []}
        rowKey={(r) => String(r.id ?? r[columnsMeta[0].key])}
        state={grid}
        onStateChange={setGrid}
        total={data?.total ?? 0}
        page={page}
        onPageChange={setPage}
        loading={query.isFetching && !data}
        error={query.error}
        onRetry={() => void query.refetch()}
        totalsRow={data && data.total > 0 && totalsInColumns ? totalsRow : undefined}
        onExport={() => downloadFile(`/Report/${meta.call}/Export`, { body }, `${meta.id}.xlsx`)}
        onPrintRows={() => allRowsForPrint(meta, body)}
      />
    </div>
  );
}
