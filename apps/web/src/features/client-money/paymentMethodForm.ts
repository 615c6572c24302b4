import type { Dayjs } from 'dayjs';
import type { PaymentMethodInput } from '@venue/domain';
import type { FieldPath } from '../../shared/forms/formErrors';

/** The payment method form's values: the card's or the MASAV authorization's fields, flat. */
export interface PaymentMethodFormValues {
  number?: string;
  expiry?: string;
  cvv?: string;
  ownerName?: string;
  ownerId?: string;
  bankCode?: string;
  branch?: string;
  account?: string;
  authExpiry?: Dayjs | null;
  /** Agorot; 0 or empty is no limit. */
  chargeLimit?: number | null;
}

/** A card or a MASAV bank authorization (seed 001 §3). */
export type PaymentMethodKind = 'card' | 'masav';

/**
 * The PaymentMethodInput body of the form: a card nests its fields under
 * `card`; MASAV sends the authorization's end as YYYY-MM-DD or null and the
 * charge limit in agorot (0 = no limit). Empty inputs are ''.
 */
export function paymentMethodBody(
  kind: PaymentMethodKind,
  clientId: number,
  v: PaymentMethodFormValues,
): PaymentMethodInput {
  if (kind === 'card') {
    return {
      kind: 'card',
      clientId,
      card: {
        number: v.number ?? '',
        expiry: v.expiry ?? '',
        cvv: v.cvv ?? '',
        ownerId: v.ownerId ?? '',
        ownerName: v.ownerName ?? '',
      },
    };
  }
  return {
    kind: 'masav',
    clientId,
    bankCode: v.bankCode ?? '',
    branch: v.branch ?? '',
    account: v.account ?? '',
    ownerId: v.ownerId ?? '',
    ownerName: v.ownerName ?? '',
    authExpiry: v.authExpiry ? v.authExpiry.format('YYYY-MM-DD') : null,
    chargeLimit: v.chargeLimit ?? 0,
  };
}

/** The card's fields are flat in the form: `card.number` → `number`. */
export function paymentMethodField(path: FieldPath): FieldPath {
  return path.filter((n) => n !== 'card');
}
