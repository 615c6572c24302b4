import dayjs, { type Dayjs } from 'dayjs';
import { ClientStatus, ClientType, type Client } from '@venue/domain';

/** The client form's values; dates are dayjs values of calendar days. */
export interface ClientFormValues {
  firstName: string;
  lastName: string;
  personalId: string;
  phone: string;
  groupId: number | null;
  cardSerial: string;
  subscriptionStart: Dayjs | null;
  subscriptionEnd: Dayjs | null;
  licenseExpiry: Dayjs | null;
  status: number;
  clientType: number;
  city: string;
  address: string;
  cardType: number;
  specialPrice: number | null;
  parentId: number | null;
  clientCode: string;
  enrollPassword: string;
  allowEnrollFingerprint: boolean;
  allowEnrollCard: boolean;
  allowEnrollFace: boolean;
  messageToClient: string;
}

const DATE_FIELDS = ['subscriptionStart', 'subscriptionEnd', 'licenseExpiry'] as const;

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
export function toInput(v: ClientFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {
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
    allowEnrollFingerprint: v.allowEnrollFingerprint,
    allowEnrollCard: v.allowEnrollCard,
    allowEnrollFace: v.allowEnrollFace,
    messageToClient: v.messageToClient ?? '',
  };
  // The enrolment code is never shown back: it is sent only when typed.
  if (v.enrollPassword) out.enrollPassword = v.enrollPassword;
  for (const f of DATE_FIELDS) out[f] = v[f] ? v[f].format('YYYY-MM-DD') : null;
  return out;
}
