import dayjs, { type Dayjs } from 'dayjs';
import type { z } from 'zod';
import { ClientStatus, ClientType, type Client, type ClientInput } from '@venue/domain';

/** The dates of a client, calendar days (`YYYY-MM-DD` in the body, dayjs values in the form). */
type DateField = 'subscriptionStart' | 'subscriptionEnd' | 'licenseExpiry';

/** The ClientInput request body, every field named (those with a default too). */
type ClientBody = Required<z.input<typeof ClientInput>>;

/**
 * The client form's values: one per ClientInput field, of its parsed type, the
 * dates as dayjs values of calendar days. Derived from the schema, so a field
 * added to ClientInput is a compile error in `toFormValues` and `toInput` until
 * the form maps it.
 */
export type ClientFormValues = { [K in keyof ClientInput]: K extends DateField ? Dayjs | null : ClientInput[K] };

/**
 * A client's form values. A new client is active, regular, may enrol every
 * way, and starts with a one-year license (DESIGN §7: every active client
 * holds a license).
 */
export function toFormValues(c: Client | null): ClientFormValues {
  const d = (s: string | null | undefined) => (s ? dayjs(s) : null);
  return {
    firstName: c?.firstName ?? '',
    lastName: c?.lastName ?? '',
    personalId: c?.personalId ?? '',
    phone: c?.phone ?? '',
    groupId: c?.groupId ?? null,
    cardSerial: c?.cardSerial ?? '',
    subscriptionStart: d(c?.subscriptionStart),
    subscriptionEnd: d(c?.subscriptionEnd),
    // Every active client holds a license (DESIGN §7): a new client starts with one year.
    licenseExpiry: c ? d(c.licenseExpiry) : dayjs().add(1, 'year'),
    status: c?.status ?? ClientStatus.Active,
    clientType: c?.clientType ?? ClientType.Regular,
    city: c?.city ?? '',
    address: c?.address ?? '',
    cardType: c?.cardType ?? 0,
    specialPrice: c?.specialPrice ?? null,
    parentId: c?.parentId ?? null,
    clientCode: c?.clientCode ?? '',
    enrollPassword: '',
    allowEnrollFingerprint: c?.allowEnrollFingerprint ?? true,
    allowEnrollCard: c?.allowEnrollCard ?? true,
    allowEnrollFace: c?.allowEnrollFace ?? true,
    messageToClient: c?.messageToClient ?? '',
  };
}

/**
 * Form values → the ClientInput request body: dates as YYYY-MM-DD or null,
 * empty texts as '', the enrolment code only when typed.
 */
export function toInput(v: ClientFormValues): z.input<typeof ClientInput> {
  const day = (d: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : null);
  const { enrollPassword, ...body } = {
    firstName: v.firstName ?? '',
    lastName: v.lastName ?? '',
    personalId: v.personalId ?? '',
    phone: v.phone ?? '',
    groupId: v.groupId ?? null,
    cardSerial: v.cardSerial ?? '',
    status: v.status,
    clientType: v.clientType,
    city: v.city ?? '',
    address: v.address ?? '',
    cardType: v.cardType ?? 0,
    specialPrice: v.specialPrice ?? null,
    parentId: v.parentId ?? null,
    clientCode: v.clientCode ?? '',
    enrollPassword: v.enrollPassword,
    allowEnrollFingerprint: v.allowEnrollFingerprint,
    allowEnrollCard: v.allowEnrollCard,
    allowEnrollFace: v.allowEnrollFace,
    messageToClient: v.messageToClient ?? '',
    subscriptionStart: day(v.subscriptionStart),
    subscriptionEnd: day(v.subscriptionEnd),
    licenseExpiry: day(v.licenseExpiry),
  } satisfies ClientBody;
  // The enrolment code is never shown back: it is sent only when typed.
  return enrollPassword ? { ...body, enrollPassword } : body;
}
