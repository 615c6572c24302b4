import dayjs, { type Dayjs } from 'dayjs';
import type { GlobalMessageKind, GlobalMessageRecord, MessageAudience } from '@venue/domain';

/** The operator's message form: dates as pickers, club ids as typed tags. */
export interface GlobalMessageFormValues {
  title: string;
  body: string;
  kind: GlobalMessageKind;
  audience: MessageAudience;
  externalClubIds: (string | number)[];
  publishAt: Dayjs | null;
  expiresAt: Dayjs | null;
}

/** A message's form values; a new one is a Basic message to every club, published on save. */
export function globalMessageFormValues(m: GlobalMessageRecord | null): GlobalMessageFormValues {
  if (!m) {
    return {
      title: '',
      body: '',
      kind: 'Basic',
      audience: 'all',
      externalClubIds: [],
      publishAt: null,
      expiresAt: null,
    };
  }
  return {
    title: m.title,
    body: m.body,
    kind: m.kind,
    audience: m.audience,
    externalClubIds: m.externalClubIds,
    publishAt: dayjs(m.publishAt),
    expiresAt: m.expiresAt ? dayjs(m.expiresAt) : null,
  };
}

/**
 * Form values → the GlobalMessageInput body: club ids as numbers (a typed
 * tag that is not a number stays a string, so the schema names the field),
 * dates as ISO instants or null.
 */
export function globalMessageBody(v: GlobalMessageFormValues): Record<string, unknown> {
  return {
    title: v.title ?? '',
    body: v.body ?? '',
    kind: v.kind,
    audience: v.audience,
    externalClubIds:
      v.audience === 'clubs'
        ? (v.externalClubIds ?? []).map((x) => (/^\d+$/.test(String(x).trim()) ? Number(String(x).trim()) : x))
        : [],
    publishAt: v.publishAt ? v.publishAt.toISOString() : null,
    expiresAt: v.expiresAt ? v.expiresAt.toISOString() : null,
  };
}
