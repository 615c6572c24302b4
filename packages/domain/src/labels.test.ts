import { describe, expect, it } from 'vitest';
import { CASH_ERRORS, CASH_SESSION_STATES } from './terminal.js';
import { PaymentMethod, PurchaseItemType, TerminalConnectionType } from './enums.js';
import { ENTRANCE_STATUSES, Reason } from './statuses.js';
import { QuickExitOutcome } from './gate.js';
import { LicenseRequestStatus } from './schemas/licenses.js';
import { PAYMENT_METHOD_BEATS, PurchasePaymentStatus } from './schemas/purchases.js';
import { BULK_ACTIONS } from './schemas/clients.js';
import { CODE_LABELS, codeI18nKey, codeLabel, codeLabelEntries, type CodeKind } from './labels.js';

const HEBREW = /[\u0590-\u05FF]/;

/** Every code the product stores or sends, per kind (from the enums, not from the label tables). */
const CODES: Partial<Record<CodeKind, readonly (string | number)[]>> = {
  entranceStatus: ENTRANCE_STATUSES,
  reason: Object.values(Reason),
  paymentMethod: [...Object.values(PaymentMethod), PAYMENT_METHOD_BEATS],
  itemType: Object.values(PurchaseItemType),
  purchaseStatus: Object.values(PurchasePaymentStatus),
  quickExitType: Object.values(QuickExitOutcome),
  cashState: CASH_SESSION_STATES,
  cashError: CASH_ERRORS,
  licenseRequestStatus: Object.values(LicenseRequestStatus),
  connectionType: Object.values(TerminalConnectionType),
  auditAction: BULK_ACTIONS.map((a) => `bulk:${a}`),
};

describe('the label catalogue', () => {
  it('labels every code of every enum in Hebrew and English', () => {
    for (const [kind, codes] of Object.entries(CODES) as [CodeKind, (string | number)[]][]) {
      for (const code of codes) {
        const he = codeLabel(kind, code, 'he');
        const en = codeLabel(kind, code, 'en');
        expect(he, `${kind} ${code}`).not.toBe(String(code));
        expect(en, `${kind} ${code}`).not.toBe('');
        expect(he, `${kind} ${code}`).toMatch(HEBREW);
        expect(en, `${kind} ${code}`).not.toMatch(HEBREW);
      }
    }
  });

  it('labels quick-exit outcomes 1 to 12', () => {
    expect(Object.keys(CODE_LABELS.quickExitType).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(codeLabel('quickExitType', 12, 'en')).toBe('Exit already recorded');
  });

  it('finds a reason by its number and an unknown code as itself', () => {
    expect(codeLabel('reason', Reason.DoubleEntry, 'he')).toBe('כניסה כפולה');
    expect(codeI18nKey('reason', Reason.DoubleEntry)).toBe('reason.DoubleEntry');
    expect(codeLabel('entranceStatus', 4, 'en')).toBe("Closed to the client's group");
    expect(codeLabel('entranceStatus', 77, 'en')).toBe('77');
  });

  it('gives the console the same texts at i18n keys without separators inside a code', () => {
    const he = codeLabelEntries('he');
    expect(he['status.4']).toBe('סגור לקבוצת הלקוח');
    expect(he['money.method_0']).toBe('מזומן');
    expect(codeI18nKey('auditAction', 'login.locked')).toBe('code.auditAction.login_locked');
    expect(codeI18nKey('auditAction', 'bulk:changeGroup')).toBe('code.auditAction.bulk_changeGroup');
    expect(he['code.auditAction.bulk_changeGroup']).toBe(codeLabel('auditAction', 'bulk:changeGroup', 'he'));
    expect(he['code.auditEntity.biometric_face']).toBe('תבנית פנים');
    for (const key of Object.keys(he)) expect(key.split('.').at(-1)).not.toMatch(/[:]/);
    expect(Object.keys(codeLabelEntries('en')).sort()).toEqual(Object.keys(he).sort());
  });
});
