import { MemberApiError } from './api';
import type { T } from './i18n';

/** The words for a failed call: its field message, its code's words (with the wait), or the generic error. */
export function errorText(tr: T, err: unknown): string {
  if (!(err instanceof MemberApiError)) return tr.t('genericError');
  if (err.code === 'NETWORK') return tr.t('networkError');
  if (err.fields.length > 0) return tr.error(err.fields[0].message);
  return tr.error(err.code, { seconds: err.retryAfterSeconds ?? 60 });
}
