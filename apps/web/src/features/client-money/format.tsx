import { useClientFormat } from '../clients/clientFormat';
import './money.css';

/** Money and date display of the money tabs: the clients area's formatter (club currency, 2125 = unlimited). */
export const useMoneyFormat = useClientFormat;

/** A date as plain text (DD/MM/YYYY) for use inside translated sentences. */
export function dateText(s: string | null | undefined): string {
  if (!s) return '—';
  const [y, m, d] = s.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}
