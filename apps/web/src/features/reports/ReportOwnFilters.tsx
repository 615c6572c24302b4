import { Input, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  contract,
  reportBarFilters,
  type ReportBarFilter,
  type ReportFilterKey,
  type ReportFilterOptions,
  type ReportMeta,
  type ReportQuery,
} from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useCan } from '../../platform/auth/useCan';
import { useTerminalList } from '../terminals/useTerminals';

/** The values of a report's own filters, as sent in the call. */
export type ReportFilters = Partial<Pick<ReportQuery, ReportFilterKey>>;

type Choice = { value: number; label: string };
type SelectValue = number | number[] | undefined;

/** data-testid of each filter's control (used by the browser tests). */
const TEST_ID: Record<ReportFilterKey, string> = {
  client: 'report-filter-client-search',
  terminalId: 'report-filter-terminal',
  groupId: 'report-filter-group',
  clientId: 'report-filter-client',
  status: 'report-filter-status',
  paymentMethod: 'report-filter-method',
  itemType: 'report-filter-item-type',
  productId: 'report-filter-product',
  userId: 'report-filter-user',
  success: 'report-filter-success',
};

const MIN_WIDTH: Record<ReportFilterOptions['kind'], number> = { one: 150, many: 170, yesNo: 130, search: 220 };

/**
 * The club's lists the filters' choices come from (terminals, products, users),
 * each read only when a filter of the report offers it; the users list only
 * to whoever may edit users (else the user filter is not shown).
 */
function useFilterLists(filters: ReportBarFilter[]) {
  const allowed = useCan();
  const needs = (list: NonNullable<ReportFilterOptions['list']>) => filters.some((f) => f.options.list === list);
  const mayReadUsers = allowed({ edit: 'users' });
  const terminals = useTerminalList();
  const products = useQuery({
    queryKey: ['products'],
    queryFn: () => api.call(contract.products.list, { query: { showInactive: 'true' } }),
    enabled: needs('products'),
  });
  const users = useQuery({
    queryKey: ['users'],
    queryFn: () => api.call(contract.users.list),
    enabled: needs('users') && mayReadUsers,
  });
  const lists: Record<NonNullable<ReportFilterOptions['list']>, Choice[]> = {
    terminals: (terminals.data?.items ?? []).map((x) => ({ value: x.id, label: x.name })),
    products: (products.data?.items ?? []).map((x) => ({ value: x.id, label: x.name })),
    users: (users.data?.items ?? []).map((x) => ({ value: x.id, label: x.name || x.username })),
  };
  return { lists, shown: (f: ReportBarFilter) => f.options.list !== 'users' || mayReadUsers };
}

/** A filter's value in its control: a yes/no filter is 1 or 0, a list filter an array. */
function toControl(options: ReportFilterOptions, v: ReportFilters[ReportFilterKey]): SelectValue {
  if (options.kind === 'yesNo') return v === undefined ? undefined : v ? 1 : 0;
  if (options.kind === 'many') return (v as number[] | undefined) ?? [];
  return v as number | undefined;
}

/** The control's value as the call's: none chosen is no filter. */
function fromControl(options: ReportFilterOptions, v: SelectValue): ReportFilters[ReportFilterKey] {
  if (options.kind === 'yesNo') return v === undefined ? undefined : v === 1;
  if (options.kind === 'many') return (v as number[]).length ? (v as number[]) : undefined;
  return v as number | undefined;
}

/**
 * The report's own filters in the filter bar, as its catalogue entry declares
 * them (packages/domain reports.ts `filters`, `statusFilter`; the options of
 * reports/filters.ts): one control per filter, in the bar's order.
 */
export function ReportOwnFilters({
  meta,
  value,
  onChange,
}: {
  meta: ReportMeta;
  value: ReportFilters;
  onChange: (f: ReportFilters) => void;
}) {
  const { t } = useTranslation();
  const filters = reportBarFilters(meta);
  const { lists, shown } = useFilterLists(filters);
  return (
    <>
      {filters.filter(shown).map(({ key, options }) =>
        options.kind === 'search' ? (
          // The client search (name, number, ID or card): sent when the user presses Enter or clears it.
          <Input.Search
            key={key}
            allowClear
            style={{ inlineSize: MIN_WIDTH.search }}
            placeholder={t(options.placeholder)}
            aria-label={t(options.placeholder)}
            defaultValue={(value[key] as string | undefined) ?? ''}
            onSearch={(v) => onChange({ ...value, [key]: v.trim() || undefined })}
            data-testid={TEST_ID[key]}
          />
        ) : (
          <Select<SelectValue>
            key={key}
            mode={options.kind === 'many' ? 'multiple' : undefined}
            allowClear
            maxTagCount={options.kind === 'many' ? 'responsive' : undefined}
            style={{ minInlineSize: MIN_WIDTH[options.kind] }}
            placeholder={t(options.placeholder)}
            aria-label={t(options.placeholder)}
            value={toControl(options, value[key])}
            onChange={(v) => onChange({ ...value, [key]: fromControl(options, v) })}
            options={
              options.list ? lists[options.list] : (options.choices ?? []).map((c) => ({ ...c, label: t(c.label) }))
            }
            data-testid={TEST_ID[key]}
          />
        ),
      )}
    </>
  );
}
