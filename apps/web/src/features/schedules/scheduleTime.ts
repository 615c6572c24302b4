import type { TFunction } from 'i18next';
import { formatMinutes } from '@venue/domain';

/**
 * A schedule row's start or end as text: a halachic time with its offset in
 * minutes ("tzeit +20"), else the fixed time (minutes after midnight as HH:MM),
 * else "—".
 */
export function scheduleTimeText(t: TFunction, fixed: number | null, halachic: number | null, offset: number): string {
  if (halachic != null) return `${t(`halachicTime.${halachic}`)}${offset ? ` ${offset > 0 ? '+' : ''}${offset}` : ''}`;
  return fixed != null ? formatMinutes(fixed) : '—';
}
