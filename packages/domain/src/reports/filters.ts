import { PAYMENT_METHOD_BEATS, PaymentMethod, PurchaseItemType } from '../enums.js';
import type { ReportFilterKey, ReportMeta } from '../reports.js';
import { REPORT_FILTER_KEYS } from './filter-keys.js';

/** A choice of a report filter: the value sent in the call and the i18n key of its label. */
export interface ReportFilterChoice {
  value: number;
  label: string;
}

/**
 * How the console offers one of a report's own filters in its filter bar
 * (seed 000 §2 Reports section; seed 001 §2):
 *
 * - `kind`: `one` — one value, sent as a number; `many` — several, sent as a
 *   list; `yesNo` — yes or no, sent as a boolean (choice 1 → true, 0 → false).
 * - `list`: the choices are one of the club's lists, read by the console
 *   (its terminals, products or users); else `choices` is a fixed list.
 * - `placeholder`: i18n key shown while nothing is chosen ("all …").
 */
export interface ReportFilterOptions {
  kind: 'one' | 'many' | 'yesNo' | 'search';
  list?: 'terminals' | 'products' | 'users';
  choices?: readonly ReportFilterChoice[];
  placeholder: string;
}

/** Choices of enumeration values whose labels are the i18n keys `<prefix><value>`. */
export function enumChoices(values: readonly number[], prefix: string): ReportFilterChoice[] {
  return values.map((value) => ({ value, label: `${prefix}${value}` }));
}

/**
 * The options of the filters that mean the same in every report that has
 * them. The status filter's choices are each report's own
 * (`ReportMeta.statusFilter`); the client and group filters have none: they
 * are set by a link (a client's page), not chosen in the bar.
 */
export const REPORT_FILTER_OPTIONS: Partial<Record<ReportFilterKey, ReportFilterOptions>> = {
  // The client search: a name, a client number, an ID number or a card (the client list's search).
  client: { kind: 'search', placeholder: 'reports.clientSearch' },
  terminalId: { kind: 'one', list: 'terminals', placeholder: 'report.allTerminals' },
  paymentMethod: {
    kind: 'many',
    // Every payment method (enums.ts, seed 000 §3) and the balance (beats).
    choices: enumChoices([...Object.values(PaymentMethod), PAYMENT_METHOD_BEATS], 'money.method_'),
    placeholder: 'reports.allMethods',
  },
  itemType: {
    kind: 'many',
    choices: enumChoices(Object.values(PurchaseItemType), 'money.itemType.'),
    placeholder: 'reports.allItemTypes',
  },
  productId: { kind: 'one', list: 'products', placeholder: 'reports.allProducts' },
  userId: { kind: 'one', list: 'users', placeholder: 'reports.allUsers' },
  success: {
    kind: 'yesNo',
    choices: [
      { value: 1, label: 'reports.succeeded' },
      { value: 0, label: 'reports.failed' },
    ],
    placeholder: 'reports.allResults',
  },
};

/** A filter of a report's filter bar: its key in the call and how it is offered. */
export interface ReportBarFilter {
  key: ReportFilterKey;
  options: ReportFilterOptions;
}

/**
 * The filters a report's filter bar shows, in the bar's order
 * ({@link REPORT_FILTER_KEYS}): those of `meta.filters` that are chosen in
 * the bar, the status filter with the report's own `statusFilter`.
 */
export function reportBarFilters(meta: Pick<ReportMeta, 'filters' | 'statusFilter'>): ReportBarFilter[] {
  return REPORT_FILTER_KEYS.filter((k) => meta.filters.includes(k)).flatMap((key) => {
    const options = key === 'status' ? meta.statusFilter : REPORT_FILTER_OPTIONS[key];
    return options ? [{ key, options }] : [];
  });
}
