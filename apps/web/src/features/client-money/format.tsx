import { formatMinor } from '@venue/domain';
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

/**
 * Money as plain text for use inside translated sentences and button labels
 * (agorot → "₪102.50"), isolated left-to-right so the symbol stays with the
 * number in a Hebrew sentence.
 */
export function moneyText(minor: number, symbol: string): string {
  return `\u2066${symbol}${formatMinor(minor, 'en-US')}\u2069`;
}
