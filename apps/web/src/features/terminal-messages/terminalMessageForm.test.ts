import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { TERMINAL_MESSAGE_DEFAULT_SECONDS, TerminalMessageInput } from '@venue/domain';
import { terminalMessageBody, terminalMessageField, terminalMessageFormValues } from './terminalMessageForm';

describe('terminal message form', () => {
  it('starts a new message as an active Basic message shown for the default seconds', () => {
    expect(terminalMessageFormValues(null)).toMatchObject({
      type: 'Basic',
      dates: null,
      displaySeconds: TERMINAL_MESSAGE_DEFAULT_SECONDS,
      active: true,
    });
  });

  it('sends the range ends as calendar days, an open end as null', () => {
    const v = {
      ...terminalMessageFormValues(null),
      name: 'Hours',
      dates: [dayjs('2026-04-01'), null] as [dayjs.Dayjs, null],
    };
    const body = terminalMessageBody(v);
    expect(body).toMatchObject({ startDate: '2026-04-01', endDate: null, title: '', content: '' });
    expect(TerminalMessageInput.safeParse(body).success).toBe(true);
  });

  it('shows errors of either end of the period on the date range, others where they are', () => {
    expect(terminalMessageField(['endDate'])).toEqual(['dates']);
    expect(terminalMessageField(['startDate'])).toEqual(['dates']);
    expect(terminalMessageField(['name'])).toEqual(['name']);
  });
});
