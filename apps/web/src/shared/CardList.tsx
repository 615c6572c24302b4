import { useState, type Key, type ReactNode } from 'react';
import { Checkbox, Empty, Pagination, Spin, Table, type TablePaginationConfig, type TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { useViewport } from './useMediaQuery';
import './grid.css';

/**
 * How a list column appears on a phone (below 600 px, seed 000 §9), where a
 * list is a column of cards instead of a table (docs/accessibility.md "Phones"):
 *  - `'key'`: one of the card's fields (label and value);
 *  - `'actions'`: the row's buttons, at the foot of the card;
 *  - `false`: not on the card.
 * When no column of a list says `'key'`, the first {@link DEFAULT_CARD_FIELDS}
 * titled columns are the card's fields, and an untitled column (or one keyed
 * `actions`) is its actions.
 */
export type CardRole = 'key' | 'actions' | false;

/** Fields on a card when the list declares none. */
export const DEFAULT_CARD_FIELDS = 6;

/** A list column as the card list reads it: an antd column, plus its role on a card. */
export type CardColumn<T> = ColumnType<T> & { card?: CardRole };

/** The value of a column's `dataIndex` in a row (a key or a path of keys). */
function cellValue<T>(row: T, dataIndex: ColumnType<T>['dataIndex']): unknown {
  if (dataIndex === undefined || dataIndex === null) return undefined;
  const path = Array.isArray(dataIndex) ? dataIndex : [dataIndex];
  let v: unknown = row;
  for (const k of path) v = v == null ? undefined : (v as Record<string | number, unknown>)[k as string | number];
  return v;
}

function renderCell<T>(c: CardColumn<T>, row: T, index: number): ReactNode {
  const value = cellValue(row, c.dataIndex);
  if (c.render) {
    const out = c.render(value, row, index);
    // antd lets render return cell props ({ children, props }); the card wants the content.
    if (out && typeof out === 'object' && 'children' in (out as object) && 'props' in (out as object)) {
      return (out as { children: ReactNode }).children;
    }
    return out as ReactNode;
  }
  return value == null ? '' : (value as ReactNode);
}

const isActions = <T,>(c: CardColumn<T>) =>
  c.card === 'actions' || (c.card === undefined && (c.key === 'actions' || !c.title));

/**
 * The card fields and actions of a list's columns (see {@link CardRole}),
 * in the columns' order. Exported for its unit test.
 */
export function cardLayout<T>(columns: readonly CardColumn<T>[]): {
  fields: CardColumn<T>[];
  actions: CardColumn<T>[];
} {
  const shown = columns.filter((c) => !c.hidden && c.card !== false);
  const actions = shown.filter(isActions);
  const declared = shown.filter((c) => c.card === 'key');
  const fields = declared.length
    ? declared
    : shown.filter((c) => !isActions(c) && c.card === undefined).slice(0, DEFAULT_CARD_FIELDS);
  return { fields, actions };
}

const keyOf = <T,>(row: T, rowKey: TableProps<T>['rowKey'], i: number): Key =>
  typeof rowKey === 'function'
    ? rowKey(row, i)
    : rowKey
      ? ((row as Record<string, unknown>)[rowKey as string] as Key)
      : i;

export interface CardListProps<T> {
  columns: readonly CardColumn<T>[];
  rows: readonly T[];
  rowKey: TableProps<T>['rowKey'];
  loading?: boolean;
  /** What to show without rows (the table's empty text). */
  empty?: ReactNode;
  /** The table's paging: false for none; without `total`, the rows are paged here. */
  pagination?: TablePaginationConfig | false;
  /** Page change of a paged list (the table's onChange for `paginate`). */
  onPageChange?: (page: number, pageSize: number) => void;
  rowSelection?: TableProps<T>['rowSelection'];
  rowClassName?: (row: T) => string;
  /** Opens a row (the table's double click; a tap on the card outside its buttons). */
  onRowClick?: (row: T) => void;
  /** A card under the rows with the totals, by column key. */
  totals?: Partial<Record<string, ReactNode>>;
  /** More of a row under its fields (the table's expanded row), behind "more" unless `detailsOpen`. */
  details?: (row: T, index: number) => ReactNode;
  detailsOpen?: boolean;
  'data-testid'?: string;
}

/**
 * A list as cards (phones): each row a card with its key fields as
 * label–value pairs and its actions at the foot, a checkbox when rows can be
 * selected, the pager under the cards. Nothing is wider than the screen.
 */
export function CardList<T extends object>(props: CardListProps<T>) {
  const { columns, rows, rowKey, loading, empty, pagination, onPageChange, rowSelection, rowClassName } = props;
  const { onRowClick, totals, details, detailsOpen } = props;
  const { t } = useTranslation();
  const [localPage, setLocalPage] = useState(1);
  const { fields, actions } = cardLayout(columns);
  const paged = pagination && pagination.total === undefined;
  const pageSize = (pagination && pagination.pageSize) || 10;
  const current = (pagination && pagination.current) || localPage;
  const shown = paged ? rows.slice((current - 1) * pageSize, current * pageSize) : rows;
  const selected = new Set(rowSelection?.selectedRowKeys ?? []);
  const toggle = (row: T, key: Key, on: boolean) => {
    if (!rowSelection?.onChange) return;
    const keys = on ? [...selected, key] : [...selected].filter((k) => k !== key);
    const chosen = rows.filter((r, i) => keys.includes(keyOf(r, rowKey, i)));
    rowSelection.onChange(keys, chosen, { type: on ? 'single' : 'single' } as never);
  };
  return (
    <Spin spinning={!!loading}>
      <div
        className="card-list"
        role={shown.length ? 'list' : undefined}
        data-testid={props['data-testid']}
        data-card-list="true"
      >
        {shown.length === 0 && !loading && (
          <div className="card-list-empty">{empty ?? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />}</div>
        )}
        {shown.map((row, i) => {
          const index = paged ? (current - 1) * pageSize + i : i;
          const key = keyOf(row, rowKey, index);
          return (
            <div
              key={key}
              role="listitem"
              className={`grid-card ${rowClassName?.(row) ?? ''}`}
              data-row-key={String(key)}
              onClick={
                onRowClick
                  ? (e) => {
                      if ((e.target as HTMLElement).closest('button, a, input, label, .ant-checkbox')) return;
                      onRowClick(row);
                    }
                  : undefined
              }
            >
              {rowSelection && (
                <Checkbox
                  className="grid-card-select"
                  checked={selected.has(key)}
                  onChange={(e) => toggle(row, key, e.target.checked)}
                  aria-label={t('a11y.selectRow', { n: index + 1 })}
                />
              )}
              <dl className="grid-card-fields">
                {fields.map((c) => (
                  <div key={String(c.key)} className="grid-card-field" data-card-field={String(c.key)}>
                    <dt>{c.title as ReactNode}</dt>
                    <dd>{renderCell(c, row, index)}</dd>
                  </div>
                ))}
              </dl>
              {details && (
                <details className="grid-card-details" open={detailsOpen}>
                  <summary>{t('a11y.moreDetails')}</summary>
                  {details(row, index)}
                </details>
              )}
              {actions.length > 0 && (
                <div className="grid-card-actions" aria-label={t('a11y.rowActions')} role="group">
                  {actions.map((c) => (
                    <span key={String(c.key)}>{renderCell(c, row, index)}</span>
                  ))}
                </div>
              )}
            </div>
          );
        })}
        {totals && shown.length > 0 && (
          // An item of the list like the rows (a list holds only list items: WCAG 1.3.1).
          <div role="listitem" className="grid-card grid-card-totals" data-testid="grid-totals-row">
            <dl className="grid-card-fields">
              {fields
                .filter((c) => totals[String(c.key)] != null)
                .map((c) => (
                  <div key={String(c.key)} className="grid-card-field">
                    <dt>{c.title as ReactNode}</dt>
                    <dd>{totals[String(c.key)]}</dd>
                  </div>
                ))}
            </dl>
          </div>
        )}
      </div>
      {pagination && (pagination.total ?? rows.length) > pageSize && (
        <Pagination
          className="card-list-pager"
          simple
          size="small"
          current={current}
          pageSize={pageSize}
          total={pagination.total ?? rows.length}
          onChange={(p, s) => {
            setLocalPage(p);
            onPageChange?.(p, s);
            pagination.onChange?.(p, s);
          }}
        />
      )}
    </Spin>
  );
}

const rowClass = <T,>(c: TableProps<T>['rowClassName']): ((row: T) => string) | undefined =>
  c === undefined ? undefined : typeof c === 'string' ? () => c : (row) => c(row, 0, 0);

/**
 * An antd Table that becomes a {@link CardList} on a phone (below 600 px):
 * the drop-in for the console's lists that are not a {@link DataGrid}.
 * Columns may say `card` (see {@link CardRole}).
 */
export function ListTable<T extends object>(props: Omit<TableProps<T>, 'columns'> & { columns?: CardColumn<T>[] }) {
  const phone = useViewport() === 'phone';
  const loading = typeof props.loading === 'object' ? props.loading.spinning : props.loading;
  // While the rows load, the spinner alone: no "no data" under it (issue 35).
  if (!phone)
    return (
      <Table<T>
        {...props}
        locale={
          loading
            ? { ...props.locale, emptyText: <div className="grid-loading-space" aria-hidden="true" /> }
            : props.locale
        }
      />
    );
  return (
    <CardList<T>
      columns={props.columns ?? []}
      rows={props.dataSource ?? []}
      rowKey={props.rowKey}
      loading={loading}
      empty={props.locale?.emptyText as ReactNode}
      pagination={props.pagination === false ? false : (props.pagination ?? { pageSize: 10 })}
      rowSelection={props.rowSelection}
      rowClassName={rowClass(props.rowClassName)}
      details={
        props.expandable?.expandedRowRender ? (r, i) => props.expandable!.expandedRowRender!(r, i, 0, true) : undefined
      }
      detailsOpen={props.expandable?.defaultExpandAllRows}
      data-testid={(props as { 'data-testid'?: string })['data-testid']}
    />
  );
}
