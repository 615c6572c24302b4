import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  formatClientNumber,
  IDENTIFIER_COLUMNS,
  isoDate,
  JERUSALEM,
  localParts,
  REPORTS,
  formatDate,
  STATUS_COLOR_HEX,
  type Period,
  type ReportColumnMeta,
  type ReportId,
  type ReportMeta,
  type ReportQuery,
  type ReportResult,
  type ReportValueType,
} from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { useLiveMessages } from '../../platform/live/LiveProvider';
import { DataGrid, DEFAULT_PAGE_SIZE, type GridColumn } from '../../shared/DataGrid';
import { downloadFile } from '../../shared/download';
import { useGridState } from '../../shared/gridState';
import { BookingRetentionNotice, isBookingReport, RetentionNotice } from '../privacy/RetentionNotice';
import './reports.css';
import { periodToFilter, ReportFilterBar, type PeriodValue } from './ReportFilterBar';
import { ReportOwnFilters, type ReportFilters } from './ReportOwnFilters';
import { ReportTotals } from './ReportTotals';
import { useReportFormatter } from './useReportFormatter';
import { openPurchaseDocument } from '../client-money/PurchaseDocuments';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';

type Row = Record<string, unknown>;
type Format = (type: ReportValueType, v: unknown) => ReactNode;

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

/** The club's "today" as the default anchor of the period. */
function initialPeriod(timeZone: string, period: Period): PeriodValue {
  const today = dayjs(isoDate(localParts(new Date(), timeZone)));
  return { period, anchor: today, range: [today.startOf('month'), today] };
}

/**
 * Refetches the report when an entrance arrives on the console's live feed,
 * at most once a second (`meta.live`: the entrance report, seed 000 §2).
 */
function useLiveRefetch(meta: ReportMeta): void {
  const qc = useQueryClient();
  const lastRefetch = useRef(0);
  const pendingRefetch = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(pendingRefetch.current ?? undefined), []);
  useLiveMessages((msg) => {
    if (!meta.live || msg.type !== 'entrance' || pendingRefetch.current) return;
    const wait = Math.max(0, lastRefetch.current + 1000 - Date.now());
    pendingRefetch.current = setTimeout(() => {
      pendingRefetch.current = null;
      lastRefetch.current = Date.now();
      void qc.invalidateQueries({ queryKey: ['report', meta.id] });
    }, wait);
  });
}

/** The grid's columns of a report: headers, alignment, phone-hidden columns, alert colour above zero. */
export function reportColumns(
  columnsMeta: readonly ReportColumnMeta[],
  fmt: Format,
  t: (k: string) => string,
  cell?: CellOverride,
) {
  return columnsMeta.map((c): GridColumn<Row> => ({
    key: c.key,
    title: t(`reports.col.${c.key}`),
    dataIndex: c.key,
    sortable: Boolean(c.sortable),
    align: c.type === 'money' || c.type === 'int' ? 'end' : undefined,
    responsive: c.wide ? ['md'] : undefined,
    // On a phone's card: the columns the catalogue marks (a report that marks none: its first six).
    card: c.card ? 'key' : undefined,
    render: (v: unknown, row: Row) =>
      cell?.(c, v, row) ??
      (IDENTIFIER_COLUMNS.has(c.key) ? (
        // Identifiers without a thousands separator ("2001"), the one format of packages/domain format.ts.
        formatClientNumber(v as number | null)
      ) : c.type === 'bool' && c.alert ? (
        // A warning flag (a club low on licenses): "yes" in the failure colour, "no" plain.
        <Tag color={v ? 'red' : undefined} style={{ marginInlineEnd: 0 }}>
          {v ? t('reports.yes') : t('reports.no')}
        </Tag>
      ) : c.alert && Number(v) > 0 ? (
        <span style={{ color: STATUS_COLOR_HEX.failed }} data-alert="true">
          {fmt(c.type, v)}
        </span>
      ) : (
        fmt(c.type, v)
      )),
  }));
}

/** A report's own rendering of a cell (null: the column's format). */
type CellOverride = (c: ReportColumnMeta, v: unknown, row: Row) => ReactNode | null;

/**
 * The purchases report's invoice number opens the purchase's document
 * (re-printable from the report, docs/money.md "Documents"); the row's `id` is the purchase.
 */
export function purchasesCell(onError: (err: unknown) => void): CellOverride {
  return (c, v, row) =>
    c.key === 'invoiceNumber' && v != null ? (
      <Typography.Link
        onClick={() => void openPurchaseDocument(Number(row.id)).catch(onError)}
        data-testid={`report-document-${String(row.id)}`}
      >
        {/* A document number, like the receipt's: digits only ("1596"), never "1,596". */}
        {formatClientNumber(v as number)}
      </Typography.Link>
    ) : null;
}

/**
 * The grid's totals row: each total that is also a column, under it, and
 * "Totals" in the first column; undefined when no total is a column.
 */
function reportTotalsRow(
  meta: ReportMeta,
  columnsMeta: readonly ReportColumnMeta[],
  data: ReportResult | undefined,
  fmt: Format,
  t: (k: string) => string,
): Record<string, ReactNode> | undefined {
  const totalsInColumns = meta.totals.some((tm) => columnsMeta.some((c) => c.key === tm.key));
  if (!data || !totalsInColumns || data.total === 0) return undefined;
  const row: Record<string, ReactNode> = {};
  for (const tm of meta.totals) {
    if (columnsMeta.some((c) => c.key === tm.key)) row[tm.key] = <strong>{fmt(tm.type, data.totals[tm.key])}</strong>;
  }
  const first = columnsMeta[0].key;
  if (row[first] == null) row[first] = <strong>{t('reports.totals')}</strong>;
  return row;
}

/**
 * The call a report page makes: the period, the report's own filters, the
 * page, the language and the grid's sort (the column's server sort key); the
 * period kind is saved with the grid state per user.
 */
function useReportCall(meta: ReportMeta) {
  const lang = useLanguage();
  const { club } = useSessionData();
  const timeZone = club.location?.timeZone ?? JERUSALEM.timeZone;
  const [grid, setGrid] = useGridState<{ period: Period }>(`report-${meta.id}`);
  const [period, setPeriod] = useState<PeriodValue>(() => initialPeriod(timeZone, grid.filters?.period ?? 'day'));
  const [filters, setFilters] = useState<ReportFilters>({});
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
  const changePeriod = (v: PeriodValue) => {
    setPeriod(v);
    setPage(1);
    if (v.period !== period.period) setGrid((s) => ({ ...s, filters: { period: v.period } }));
  };
  const changeFilters = (f: ReportFilters) => {
    setFilters(f);
    setPage(1);
  };
  return { grid, setGrid, period, changePeriod, filters, changeFilters, page, setPage, columnsMeta, body };
}

/**
 * Any report of the catalogue (packages/domain reports.ts): the period and
 * the report's own filters, a grid paged and sorted on the server, the totals
 * (cards, breakdowns and a totals row), .xlsx export and print (every row of
 * the filter, up to {@link PRINT_MAX_ROWS}, not only the page shown). Column
 * layout, sort, page size and the period kind are saved per user; a `live`
 * report refetches as entrances arrive.
 *
 * `actions`: buttons of this report beside its title (e.g. "Reconcile now" on safer payments).
 */
export function ReportPage({ id, actions }: { id: ReportId; actions?: ReactNode }) {
  const meta: ReportMeta = REPORTS[id];
  useLiveRefetch(meta);
  const { t } = useTranslation();
  const fmt = useReportFormatter();
  const toast = useToast();
  const call = useReportCall(meta);
  const { columnsMeta, body } = call;
  const query = useReport(meta, body);
  const data = query.data;
  return (
    <div data-testid={`report-${meta.id}`}>
      <div className="page-header">
        <Typography.Title level={2}>{t(`nav.${meta.navKey}`)}</Typography.Title>
        {data && (
          <span className="page-subtitle ltr-value" data-testid="report-range-label">
            {formatDate(data.range.from)} – {formatDate(data.range.to)}
          </span>
        )}
        {actions}
      </div>
      <ReportFilterBar value={call.period} onChange={call.changePeriod}>
        <ReportOwnFilters meta={meta} value={call.filters} onChange={call.changeFilters} />
      </ReportFilterBar>
      {data && (meta.id === 'entrances' || meta.id === 'clientEntrances') && <RetentionNotice from={data.range.from} />}
      {data && isBookingReport(meta.id) && <BookingRetentionNotice from={data.range.from} />}
      <ReportTotals meta={meta} data={data} loading={query.isPending} fmt={fmt} />
      <DataGrid<Row>
        gridId={`report-${meta.id}`}
        data-testid="report-table"
        columns={reportColumns(
          columnsMeta,
          fmt,
          t,
          meta.id === 'purchases' ? purchasesCell((err) => toast.error(errorText(t, err))) : undefined,
        )}
        rows={data?.items ?? []}
        rowKey={(r) => String(r.id ?? r[columnsMeta[0].key])}
        state={call.grid}
        onStateChange={call.setGrid}
        total={data?.total ?? 0}
        page={call.page}
        onPageChange={call.setPage}
        loading={query.isFetching && !data}
        error={query.error}
        onRetry={() => void query.refetch()}
        totalsRow={reportTotalsRow(meta, columnsMeta, data, fmt, t)}
        onExport={() => downloadFile(`/Report/${meta.call}/Export`, { body }, `${meta.id}.xlsx`)}
        onPrintRows={() => allRowsForPrint(meta, body)}
      />
    </div>
  );
}
