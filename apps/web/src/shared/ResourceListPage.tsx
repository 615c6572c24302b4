import type { Key, ReactNode } from 'react';
import { Button, Space, Tooltip, Typography, type TableProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ListTable, type CardColumn } from './CardList';
import { DataGrid, type DataGridProps } from './DataGrid';
import { errorText } from './errors';

/** The header's "new" button: antd's primary button with a plus. */
export interface CreateAction {
  label: string;
  /** The button's `data-testid` (browser tests click it). */
  testId: string;
  onClick: () => void;
  disabled?: boolean;
  /** Shown on hover (e.g. why the button is disabled); the button is wrapped in a tooltip when the key is given. */
  tooltip?: string | undefined;
}

/** What the page reads of the list's query (a react-query result). */
export interface ListQueryState {
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** A DataGrid list: its props less what the page fills in from `rows` and `query`. */
export type ResourceGrid<T> = Omit<DataGridProps<T>, 'rows' | 'rowKey' | 'loading' | 'error' | 'onRetry' | 'emptyText'>;

/** A ListTable list (the table, cards on a phone): its columns, paging and row behaviour. */
export interface ResourceTable<T> {
  columns: CardColumn<T>[] | undefined;
  /** Default: no paging. */
  pagination?: TableProps<T>['pagination'];
  onRow?: TableProps<T>['onRow'];
  /** The list's `data-testid`. */
  testId?: string;
}

interface ResourceListPageBase<T> {
  /** The screen's name (the page's h2). */
  title: string;
  /** The "new" button at the header's end; left out (false/undefined) when the user may not create. */
  create?: CreateAction | false;
  /** Other header content, before the "new" button (a count, more buttons); both then wrap in one row. */
  actions?: ReactNode;
  /** Between the header and the list: help, filters, a warning. */
  above?: ReactNode;
  rows: readonly T[];
  /** Default `'id'`. */
  rowKey?: (keyof T & string) | ((row: T) => Key);
  query: ListQueryState;
  /** The empty list's text (the grid's own default when left out). */
  emptyText?: string;
  /** The editor (drawer or modal) and other dialogs, after the list. */
  dialogs?: ReactNode;
}

/**
 * The list screens' one page shell (react-admin's List): the header (title, its
 * actions, the "new" button), what goes above the list, the list — a
 * {@link DataGrid} (`grid`: column chooser, export, print; loading while
 * fetching, the error with a retry) or a {@link ListTable} (`table`: loading
 * until the first answer, the error as the empty text) — and the editor.
 */
export type ResourceListPageProps<T> = ResourceListPageBase<T> &
  ({ grid: ResourceGrid<T>; table?: never } | { table: ResourceTable<T>; grid?: never });

export function ResourceListPage<T extends object>(props: ResourceListPageProps<T>) {
  const { title, create, actions, above, dialogs } = props;
  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{title}</Typography.Title>
        <HeaderActions actions={actions} create={create} />
      </div>
      {above}
      <ResourceList<T> {...props} />
      {dialogs}
    </>
  );
}

/** The header's end: the actions and the "new" button together in one wrapping row, or either alone. */
function HeaderActions({ actions, create }: { actions?: ReactNode; create?: CreateAction | false }) {
  const button = create ? <CreateButton {...create} /> : null;
  if (actions == null) return button;
  return (
    <Space wrap>
      {actions}
      {button}
    </Space>
  );
}

function CreateButton(create: CreateAction) {
  const { label, testId, onClick, disabled, tooltip } = create;
  const button = (
    <Button type="primary" icon={<PlusOutlined />} disabled={disabled} onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );
  return 'tooltip' in create ? <Tooltip title={tooltip}>{button}</Tooltip> : button;
}

function ResourceList<T extends object>({
  rows,
  rowKey = 'id' as keyof T & string,
  query,
  emptyText,
  grid,
  table,
}: ResourceListPageProps<T>) {
  const { t } = useTranslation();
  if (grid) {
    return (
      <DataGrid<T>
        {...grid}
        rows={rows}
        rowKey={rowKey}
        loading={query.isFetching}
        error={query.error}
        onRetry={() => void query.refetch()}
        emptyText={emptyText}
      />
    );
  }
  return (
    <ListTable<T>
      data-testid={table!.testId}
      rowKey={rowKey}
      columns={table!.columns}
      dataSource={rows}
      loading={query.isPending}
      pagination={table!.pagination ?? false}
      scroll={{ x: 'max-content' }}
      onRow={table!.onRow}
      locale={{ emptyText: query.isError ? errorText(t, query.error) : (emptyText ?? t('common.noData')) }}
    />
  );
}
