import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { ClientInput, ClientStatus, ClientType } from '@venue/domain';
import { toFormValues, toInput } from './clientForm';

describe('client form mapping', () => {
  it('starts a new client active, regular, allowed every enrolment, with a license for one year', () => {
    const v = toFormValues(null);
    expect(v.status).toBe(ClientStatus.Active);
    expect(v.clientType).toBe(ClientType.Regular);
    expect([v.allowEnrollCard, v.allowEnrollFace, v.allowEnrollFingerprint]).toEqual([true, true, true]);
    expect(v.licenseExpiry?.format('YYYY-MM-DD')).toBe(dayjs().add(1, 'year').format('YYYY-MM-DD'));
    expect(v.subscriptionStart).toBeNull();
  });

  it('sends dates as calendar days and empty dates as null', () => {
    const v = { ...toFormValues(null), firstName: 'Dana', subscriptionStart: dayjs('2026-03-01T22:30:00') };
    const body = toInput({ ...v, licenseExpiry: null });
    expect(body.subscriptionStart).toBe('2026-03-01');
    expect(body.subscriptionEnd).toBeNull();
    expect(body.licenseExpiry).toBeNull();
  });

  it('sends the enrolment code only when typed', () => {
    const v = { ...toFormValues(null), firstName: 'Dana' };
    expect(toInput(v)).not.toHaveProperty('enrollPassword');
    expect(toInput({ ...v, enrollPassword: '4321' })).toHaveProperty('enrollPassword', '4321');
  });

  it('builds a body the ClientInput schema accepts for a new client with a first name', () => {
    const parsed = ClientInput.safeParse(toInput({ ...toFormValues(null), firstName: 'Dana' }));
    expect(parsed.success).toBe(true);
  });

  it('turns cleared inputs (undefined from antd) into empty texts', () => {
    const v = { ...toFormValues(null), firstName: 'Dana', phone: undefined as unknown as string };
    expect(toInput(v).phone).toBe('');
  });

  it('sends every ClientInput field, and the schema keeps what the form typed', () => {
    const v = {
      ...toFormValues(null),
      firstName: 'Dana',
      enrollPassword: '4321',
      subscriptionStart: dayjs('2026-03-01'),
      specialPrice: 1250,
    };
    const body = toInput(v);
    expect(Object.keys(body).sort()).toEqual(Object.keys(ClientInput.shape).sort());
    const parsed = ClientInput.parse(body);
    expect(parsed).toMatchObject({ firstName: 'Dana', enrollPassword: '4321', subscriptionStart: '2026-03-01' });
    expect(parsed.specialPrice).toBe(1250);
  });
});
