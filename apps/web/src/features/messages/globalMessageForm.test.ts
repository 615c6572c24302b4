import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { GlobalMessageInput } from '@venue/domain';
import { globalMessageBody, globalMessageFormValues } from './globalMessageForm';

describe('global message form', () => {
  it('a new message is Basic, to every club, published on save', () => {
    const body = GlobalMessageInput.parse(globalMessageBody({ ...globalMessageFormValues(null), title: 'Hello' }));
    expect(body).toMatchObject({ title: 'Hello', kind: 'Basic', audience: 'all', publishAt: null, expiresAt: null });
  });

  it('sends chosen clubs as numbers, and names a typed tag that is not a club id', () => {
    const v = {
      ...globalMessageFormValues(null),
      title: 'x',
      audience: 'clubs' as const,
      externalClubIds: ['1001', ' 7002 ', 'abc'],
    };
    expect(globalMessageBody(v).externalClubIds).toEqual([1001, 7002, 'abc']);
    const r = GlobalMessageInput.safeParse(globalMessageBody(v));
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path[0]).toBe('externalClubIds');
    // Another audience drops the list.
    expect(globalMessageBody({ ...v, audience: 'kala' }).externalClubIds).toEqual([]);
  });

  it('sends dates as instants', () => {
    const at = dayjs('2026-12-01T08:30:00Z');
    const body = GlobalMessageInput.parse(
      globalMessageBody({ ...globalMessageFormValues(null), title: 'x', publishAt: at }),
    );
    expect(body.publishAt).toBe('2026-12-01T08:30:00.000Z');
  });
});
