/**
 * The report's own filters (seed 000 §2 Reports section, seed 001 §2: terminal, group, client,
 * status, payment method, item type, product, user; and the success of an
 * automatic renewal), in the order of the console's filter bar. `client` is
 * a search (name, client number, ID number or card, issue 19); `clientId`
 * names one client (set by a link from the client's page).
 */
export const REPORT_FILTER_KEYS = [
  'client',
  'terminalId',
  'groupId',
  'clientId',
  'status',
  'paymentMethod',
  'itemType',
  'productId',
  'userId',
  'success',
] as const;
export type ReportFilterKey = (typeof REPORT_FILTER_KEYS)[number];
