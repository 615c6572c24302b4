import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type Key,
  type RefObject,
  type ReactNode,
  type ThHTMLAttributes,
} from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Empty,
  Grid,
  Popover,
  Space,
  Table,
  Tooltip,
  type TableProps,
  type TablePaginationConfig,
} from 'antd';
import type { ColumnType, SortOrder } from 'antd/es/table/interface';
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DownloadOutlined,
  PrinterOutlined,
  SettingOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useDirection } from '../platform/i18n/LocaleProvider';
import { errorText } from './errors';
import type { GridColumnState, GridState } from './gridState';
import { useViewport } from './useMediaQuery';
import './grid.css';
import { useToast } from './toast/ToastProvider';
import { CardList, type CardRole } from './CardList';
import { printList } from './print';

/**
 * DataGrid: the one list grid of the console, an antd Table with
 *  - a column chooser (show/hide, order by arrows, reset),
 *  - column widths by dragging the header edge,
 *  - sorting on the server (`sortMode="server"`, the default) or in the page,
 *  - export (.xlsx through the caller's `onExport`; "No data to export" when empty) and print,
 *  - loading, error (translated, with retry) and empty states,
 * and it keeps column order, widths, visibility, sort and page size in a
 * {@link GridState} that the caller gets from `useGridState(gridId)` (saved per
 * user on the server and restored at the next sign-in).
 *
 * Usage (any screen):
 * ```tsx
 * const [grid, setGrid] = useGridState<MyFilters>('products');
 * <DataGrid gridId="products" state={grid} onStateChange={setGrid}
 *   columns={[{ key: 'name', title: t('x.name'), dataIndex: 'name', sortable: true }]}
 *   rows={data.items} rowKey="id" total={data.total} loading={q.isFetching} error={q.error}
 *   onExport={() => downloadFile('/Product/Export', {}, 'products.xlsx')} />
 * ```
 * Filters live in `state.filters`, owned by the screen's own toolbar (pass it as `toolbar`).
 */
export interface GridColumn<T> extends Omit<ColumnType<T>, 'key' | 'title' | 'sorter'> {
  key: string;
  title: string;
  /** Hidden until the user shows it in the column chooser. */
  defaultHidden?: boolean;
  /** Cannot be hidden (the name, the actions). */
  alwaysVisible?: boolean;
  /** Server sort key (sortMode server) or a compare function (sortMode page). */
  sortable?: boolean | ((a: T, b: T) => number);
  /** Its place on a phone's card (shared/CardList.tsx `CardRole`): a key field, the actions, or none. */
  card?: CardRole;
}

export interface DataGridProps<T> {
  gridId: string;
  columns: GridColumn<T>[];
  rows: readonly T[];
  rowKey: (keyof T & string) | ((row: T) => Key);
  state: GridState;
  onStateChange: (update: (s: GridState) => GridState) => void;
  /** Total on the server: paging is on the server when given. */
  total?: number;
  page?: number;
  onPageChange?: (page: number) => void;
  sortMode?: 'server' | 'page';
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** Writes the file (e.g. {@link downloadFile}); not called when there is nothing to export. */
  onExport?: () => Promise<void>;
  /**
   * Every row to print (server paging: all pages of the current filter and sort, up to a cap).
   * Print then shows these rows on one unpaged table, with a note when fewer than `total`;
   * without it, print prints the page shown.
   */
  onPrintRows?: () => Promise<readonly T[]>;
  toolbar?: ReactNode;
  rowSelection?: TableProps<T>['rowSelection'];
  rowClassName?: (row: T) => string;
  onRowClick?: (row: T) => void;
  emptyText?: string;
  /** A totals row under the rows (reports): content per column key; columns without one stay empty. */
  totalsRow?: Partial<Record<string, ReactNode>>;
  'data-testid'?: string;
}

/** Rows per page when the user chose none (a server-paged caller must ask the server for the same). */
export const DEFAULT_PAGE_SIZE = 25;
const MIN_WIDTH = 60;

/** Columns in the user's order and visibility; new columns (not yet saved) go last. */
export function arrangeColumns<T>(columns: GridColumn<T>[], saved: GridColumnState[] | undefined): GridColumnState[] {
  const known = new Map(columns.map((c) => [c.key, c]));
  const out: GridColumnState[] = [];
  for (const s of saved ?? []) if (known.has(s.key)) out.push(s);
  for (const c of columns) if (!out.some((s) => s.key === c.key)) out.push({ key: c.key, hidden: c.defaultHidden });
  return out;
}

/** Antd table columns of the arranged grid columns: order, visibility, width (resizable), sort state. */
function toTableColumns<T extends object>(x: {
  columns: GridColumn<T>[];
  byKey: Map<string, GridColumn<T>>;
  arranged: GridColumnState[];
  sort: GridState['sort'];
  sortMode: 'server' | 'page';
  rtl: boolean;
  onStateChange: DataGridProps<T>['onStateChange'];
}): TableProps<T>['columns'] {
  const { columns, byKey, arranged, sortMode, rtl, onStateChange } = x;
  const state = { sort: x.sort };
  return arranged
    .filter((s) => !s.hidden || byKey.get(s.key)?.alwaysVisible)
    .map((s) => {
      const c = byKey.get(s.key)!;
      const { sortable, defaultHidden: _d, alwaysVisible: _a, card: _c, ...rest } = c;
      const sortOrder: SortOrder =
        state.sort?.key === c.key ? (state.sort.order === 'desc' ? 'descend' : 'ascend') : null;
      const width = s.width ?? c.width;
      return {
        ...rest,
        title: c.title,
        key: c.key,
        width,
        sorter: sortable ? (typeof sortable === 'function' && sortMode === 'page' ? sortable : true) : undefined,
        sortOrder: sortable ? sortOrder : undefined,
        onHeaderCell: () =>
          ({
            width: typeof width === 'number' ? width : undefined,
            rtl,
            onResize: (w: number) =>
              onStateChange((st) => ({
                ...st,
                columns: arrangeColumns(columns, st.columns).map((x) => (x.key === c.key ? { ...x, width: w } : x)),
              })),
          }) as ThHTMLAttributes<HTMLTableCellElement>,
      };
    });
}

/**
 * The table's paging: the server's total when it pages (`total` given), else
 * client paging only when the rows do not fit one page; false for no pager.
 */
export function gridPagination(
  t: TFunction,
  { page, pageSize, total, rowCount }: { page: number; pageSize: number; total?: number; rowCount: number },
): TablePaginationConfig | false {
  const showTotal = (n: number) => t('common.totalItems', { total: n });
  if (total !== undefined) return { current: page, pageSize, total, showSizeChanger: true, showTotal };
  return rowCount > pageSize ? { current: page, pageSize, showSizeChanger: true, showTotal } : false;
}

/** A header cell with a drag handle on its inline end that sets the column width. */
function ResizableTitle({
  onResize,
  width,
  rtl,
  ...rest
}: ThHTMLAttributes<HTMLTableCellElement> & { onResize?: (w: number) => void; width?: number; rtl?: boolean }) {
  if (!onResize) return <th {...rest} />;
  return (
    <th {...rest} style={{ ...rest.style, position: 'relative' }}>
      {rest.children}
      <span
        className="grid-resize-handle"
        role="separator"
        aria-orientation="vertical"
        onClick={(e) => e.stopPropagation()}
        onPointerDown={(e) => {
          e.preventDefault();
          e.stopPropagation();
          const th = (e.currentTarget.parentElement as HTMLElement | null) ?? null;
          const start = e.clientX;
          const startWidth = width ?? th?.getBoundingClientRect().width ?? 120;
          const el = e.currentTarget;
          el.setPointerCapture(e.pointerId);
          const move = (ev: PointerEvent) => {
            const delta = (ev.clientX - start) * (rtl ? -1 : 1);
            onResize(Math.max(MIN_WIDTH, Math.round(startWidth + delta)));
          };
          const up = () => {
            el.removeEventListener('pointermove', move);
            el.removeEventListener('pointerup', up);
          };
          el.addEventListener('pointermove', move);
          el.addEventListener('pointerup', up);
        }}
      />
    </th>
  );
}

function ColumnChooser<T>({
  columns,
  arranged,
  onChange,
}: {
  columns: GridColumn<T>[];
  arranged: GridColumnState[];
  onChange: (cols: GridColumnState[] | undefined) => void;
}) {
  const { t } = useTranslation();
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const move = (i: number, step: -1 | 1) => {
    const j = i + step;
    if (j < 0 || j >= arranged.length) return;
    const next = [...arranged];
    [next[i], next[j]] = [next[j], next[i]];
    onChange(next);
  };
  return (
    <div className="grid-chooser" data-testid="grid-chooser">
      {arranged.map((s, i) => {
        const c = byKey.get(s.key);
        if (!c) return null;
        return (
          <div key={s.key} className="grid-chooser-row">
            <Checkbox
              checked={!s.hidden}
              disabled={c.alwaysVisible}
              data-testid={`grid-col-${s.key}`}
              onChange={(e) =>
                onChange(arranged.map((x) => (x.key === s.key ? { ...x, hidden: !e.target.checked } : x)))
              }
            >
              {c.title || t('grid.actions')}
            </Checkbox>
            <Space size={2}>
              <Button
                size="small"
                type="text"
                icon={<ArrowUpOutlined />}
                disabled={i === 0}
                aria-label={t('grid.moveUp')}
                onClick={() => move(i, -1)}
              />
              <Button
                size="small"
                type="text"
                icon={<ArrowDownOutlined />}
                disabled={i === arranged.length - 1}
                aria-label={t('grid.moveDown')}
                onClick={() => move(i, 1)}
              />
            </Space>
          </div>
        );
      })}
      <Button size="small" icon={<UndoOutlined />} onClick={() => onChange(undefined)} data-testid="grid-reset">
        {t('grid.reset')}
      </Button>
    </div>
  );
}

export function DataGrid<T extends object>(props: DataGridProps<T>) {
  const { gridId, columns, rows, rowKey, state, onStateChange, total, sortMode = 'server' } = props;
  const { page: pageProp, onPageChange: onPageChangeProp, loading, error, onRetry, onExport, onPrintRows } = props;
  const { toolbar, rowSelection, rowClassName, onRowClick, emptyText, totalsRow } = props;
  const { t } = useTranslation();
  const rtl = useDirection() === 'rtl';
  const viewport = useViewport();
  const arranged = useMemo(() => arrangeColumns(columns, state.columns), [columns, state.columns]);
  const { exporting, printRows, preparingPrint, doExport, doPrint } = useGridOutput(
    total ?? rows.length,
    onExport,
    onPrintRows,
    arranged.filter((s) => !s.hidden).length,
  );
  const [localPage, setLocalPage] = useState(1);
  const page = pageProp ?? localPage;
  const onPageChange = onPageChangeProp ?? setLocalPage;
  const pageSize = state.pageSize ?? DEFAULT_PAGE_SIZE;

  const byKey = useMemo(() => new Map(columns.map((c) => [c.key, c])), [columns]);
  const tableColumns = toTableColumns({ columns, byKey, arranged, sort: state.sort, sortMode, rtl, onStateChange });

  const onChange: TableProps<T>['onChange'] = (pagination, _filters, sorter, extra) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    if (extra.action === 'sort') {
      onStateChange((st) => ({
        ...st,
        sort: s?.order ? { key: String(s.columnKey), order: s.order === 'descend' ? 'desc' : 'asc' } : null,
      }));
      onPageChange(1);
    }
    if (extra.action === 'paginate') {
      if (pagination.pageSize && pagination.pageSize !== pageSize) {
        onStateChange((st) => ({ ...st, pageSize: pagination.pageSize }));
        onPageChange(1);
      } else onPageChange(pagination.current ?? 1);
    }
  };

  const shownRows = printRows ?? rows;
  // A phone shows the rows as cards (docs/accessibility.md "Phones"); printing always uses the table.
  const cards = viewport === 'phone' && !printRows;
  const pagination = printRows ? false : gridPagination(t, { page, pageSize, total, rowCount: rows.length });
  const selection = translatedSelection(t, rowSelection, rows);
  // While the first rows load, the spinner alone: no "no data" under it (issue 35).
  const empty = error ? (
    errorText(t, error)
  ) : loading ? (
    <div className="grid-loading-space" aria-hidden="true" />
  ) : (
    <GridEmpty text={emptyText ?? t('common.noData')} />
  );
  const box = useRef<HTMLDivElement>(null);
  useInertMeasureRows(box);

  const chooser = (
    <ColumnChooser
      columns={columns}
      arranged={arranged}
      onChange={(cols) => onStateChange((st) => ({ ...st, columns: cols }))}
    />
  );

  return (
    <div ref={box} className="data-grid" data-grid-id={gridId} data-printing={printRows ? 'true' : undefined}>
      <div className="toolbar grid-toolbar no-print">
        {toolbar}
        <GridActions
          chooser={chooser}
          onExport={onExport ? () => void doExport() : undefined}
          exporting={exporting}
          onPrint={() => void doPrint()}
          preparingPrint={preparingPrint}
        />
      </div>
      {error != null && error !== false && <GridError error={error} onRetry={onRetry} />}
      {printRows && total !== undefined && printRows.length < total && (
        <Alert
          type="info"
          style={{ marginBlockEnd: 8 }}
          title={t('grid.printTruncated', { shown: printRows.length, total })}
          data-testid="grid-print-truncated"
        />
      )}
      {cards ? (
        <CardList<T>
          {...{ rows, loading, empty, pagination, rowClassName, onRowClick }}
          data-testid={props['data-testid'] ?? `${gridId}-table`}
          columns={visibleColumns(arranged, byKey)}
          rowKey={rowKey as TableProps<T>['rowKey']}
          onPageChange={(p, size) => {
            if (size !== pageSize) onStateChange((st) => ({ ...st, pageSize: size }));
            onPageChange(p);
          }}
          rowSelection={selection}
          totals={totalsRow}
        />
      ) : (
        <Table<T>
          data-testid={props['data-testid'] ?? `${gridId}-table`}
          rowKey={rowKey as TableProps<T>['rowKey']}
          size={viewport === 'desktop' ? 'middle' : 'small'}
          columns={tableColumns}
          dataSource={shownRows as T[]}
          loading={loading}
          onChange={onChange}
          components={{ header: { cell: ResizableTitle } }}
          // Columns wrap to fit the box first and scroll inside it only when they cannot (nothing clipped).
          scroll={{ x: true }}
          tableLayout="auto"
          rowSelection={selection}
          rowClassName={rowClassName}
          onRow={onRowClick ? (r) => ({ onDoubleClick: () => onRowClick(r) }) : undefined}
          summary={totalsRow ? () => <TotalsRow columns={tableColumns ?? []} totalsRow={totalsRow} /> : undefined}
          locale={{ emptyText: empty }}
          pagination={pagination}
        />
      )}
    </div>
  );
}

/**
 * rc-table sizes its columns with a hidden row that copies each header (the
 * select-all checkbox too) under `aria-hidden`: a focusable control inside
 * it is a trap for keyboard users and fails axe's `aria-hidden-focus`
 * (serious). The row is made `inert` (nothing in it takes the focus), again
 * whenever the table renders it anew.
 */
export function useInertMeasureRows(box: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const mark = () =>
      root.querySelectorAll('.ant-table-measure-row:not([inert])').forEach((row) => row.setAttribute('inert', ''));
    mark();
    const observer = new MutationObserver(mark);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [box]);
}

const GridEmpty = ({ text }: { text: string }) => <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} />;

/** The grid's columns in the user's order, without the hidden ones (the cards of a phone). */
function visibleColumns<T>(arranged: GridColumnState[], byKey: Map<string, GridColumn<T>>): GridColumn<T>[] {
  return arranged.filter((s) => !s.hidden || byKey.get(s.key)?.alwaysVisible).map((s) => byKey.get(s.key)!);
}

/** The row selection with screen-reader names of the checkboxes in the interface language (antd's are English only). */
function translatedSelection<T extends object>(
  t: TFunction,
  rowSelection: TableProps<T>['rowSelection'],
  rows: readonly T[],
): TableProps<T>['rowSelection'] {
  return (
    rowSelection && {
      ...rowSelection,
      getTitleCheckboxProps: () => ({ 'aria-label': t('a11y.selectAll') }),
      getCheckboxProps: (row) => ({
        ...rowSelection.getCheckboxProps?.(row),
        'aria-label': t('a11y.selectRow', { n: rows.indexOf(row) + 1 }),
      }),
    }
  );
}

/** The grid's buttons: column chooser, export (when the screen exports), print. */
function GridActions({
  chooser,
  onExport,
  exporting,
  onPrint,
  preparingPrint,
}: {
  chooser: ReactNode;
  onExport?: () => void;
  exporting: boolean;
  onPrint: () => void;
  preparingPrint: boolean;
}) {
  const { t } = useTranslation();
  const viewport = useViewport();
  return (
    <Space className="grid-actions" size={4}>
      <Popover content={chooser} trigger="click" placement="bottomRight" title={t('grid.columns')}>
        <Tooltip title={t('grid.columns')}>
          <Button icon={<SettingOutlined />} aria-label={t('grid.columns')} data-testid="grid-columns" />
        </Tooltip>
      </Popover>
      {onExport && (
        <Tooltip title={t('grid.export')}>
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            aria-label={t('grid.export')}
            onClick={onExport}
            data-testid="grid-export"
          >
            {viewport === 'phone' ? null : t('grid.export')}
          </Button>
        </Tooltip>
      )}
      <Tooltip title={t('grid.print')}>
        <Button
          icon={<PrinterOutlined />}
          aria-label={t('grid.print')}
          loading={preparingPrint}
          onClick={onPrint}
          data-testid="grid-print"
        />
      </Tooltip>
    </Space>
  );
}

/** The totals row under the table, cell by shown column (by column key). */
function TotalsRow<T>({
  columns,
  totalsRow,
}: {
  columns: NonNullable<TableProps<T>['columns']>;
  totalsRow: Record<string, ReactNode>;
}) {
  const screens = Grid.useBreakpoint();
  return (
    <Table.Summary fixed>
      <Table.Summary.Row className="grid-totals-row" data-testid="grid-totals-row">
        {columns
          // The table drops a column hidden at this width (`responsive`); the totals row must too.
          .filter((c) => !c.responsive || c.responsive.some((bp) => screens[bp]))
          .map((c, i) => (
            <Table.Summary.Cell key={String(c.key)} index={i} align={(c as ColumnType<T>).align}>
              {totalsRow[String(c.key)] ?? null}
            </Table.Summary.Cell>
          ))}
      </Table.Summary.Row>
    </Table.Summary>
  );
}

/**
 * Export and print of a grid: export says "no data to export" when there are
 * no rows; print shows every row the screen gives (onPrintRows) or just the
 * page, opens the print dialog (A4, landscape when the list is wide: shared/print.ts),
 * then goes back to the page.
 */
function useGridOutput<T>(
  count: number,
  onExport: (() => Promise<void>) | undefined,
  onPrintRows: (() => Promise<readonly T[]>) | undefined,
  columnCount: number,
) {
  const { t } = useTranslation();
  const message = useToast();
  const [exporting, setExporting] = useState(false);
  const [printRows, setPrintRows] = useState<readonly T[] | null>(null);
  const [preparingPrint, setPreparingPrint] = useState(false);
  // The rows to print are on the table: open the print dialog, then back to the page.
  useEffect(() => {
    if (!printRows) return;
    const done = () => setPrintRows(null);
    window.addEventListener('afterprint', done, { once: true });
    const frame = requestAnimationFrame(() => printList(columnCount));
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('afterprint', done);
    };
  }, [printRows, columnCount]);
  const doExport = async () => {
    if (count === 0) {
      message.info(t('grid.noDataToExport'));
      return;
    }
    if (!onExport) return;
    setExporting(true);
    try {
      await onExport();
    } catch (e) {
      message.error(errorText(t, e));
    } finally {
      setExporting(false);
    }
  };

  const doPrint = async () => {
    if (!onPrintRows) {
      printList(columnCount);
      return;
    }
    setPreparingPrint(true);
    try {
      setPrintRows(await onPrintRows());
    } catch (e) {
      message.error(errorText(t, e));
    } finally {
      setPreparingPrint(false);
    }
  };
  return { exporting, printRows, preparingPrint, doExport, doPrint };
}

/** The load error above the table, translated, with retry when the screen can. */
function GridError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      className="no-print"
      type="error"
      showIcon
      style={{ marginBlockEnd: 12 }}
      title={errorText(t, error)}
      action={
        onRetry ? (
          <Button size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        ) : undefined
      }
    />
  );
}
