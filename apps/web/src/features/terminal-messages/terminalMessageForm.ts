import dayjs, { type Dayjs } from 'dayjs';
import { TERMINAL_MESSAGE_DEFAULT_SECONDS, type TerminalMessageRecord } from '@venue/domain';
import type { FieldPath } from '../../shared/forms/formErrors';

/** The message form's values: the shown period is one date range (either end open). */
export interface TerminalMessageFormValues {
  name: string;
  title: string;
  type: string;
  content: string;
  dates: [Dayjs | null, Dayjs | null] | null;
  /** Seconds the terminal shows the message. */
  displaySeconds: number;
  active: boolean;
}

/** A message's form values; a new one is an active Basic message shown for the default seconds. */
export function terminalMessageFormValues(m: TerminalMessageRecord | null): TerminalMessageFormValues {
  if (!m) {
    return {
      name: '',
      title: '',
      type: 'Basic',
      content: '',
      dates: null,
      displaySeconds: TERMINAL_MESSAGE_DEFAULT_SECONDS,
      active: true,
    };
  }
  return {
    ...m,
    dates: [m.startDate ? dayjs(m.startDate) : null, m.endDate ? dayjs(m.endDate) : null],
  };
}

/** Form values → the TerminalMessageInput body: the range's ends as YYYY-MM-DD or null. */
export function terminalMessageBody(v: TerminalMessageFormValues): Record<string, unknown> {
  return {
    name: v.name,
    title: v.title ?? '',
    type: v.type,
    content: v.content ?? '',
    startDate: v.dates?.[0] ? v.dates[0].format('YYYY-MM-DD') : null,
    endDate: v.dates?.[1] ? v.dates[1].format('YYYY-MM-DD') : null,
    displaySeconds: v.displaySeconds,
    active: v.active,
  };
}

/** The server reports the period's ends (an end before the start on endDate); both show on the date range. */
export function terminalMessageField(path: FieldPath): FieldPath {
  return path[0] === 'endDate' || path[0] === 'startDate' ? ['dates'] : path;
}
