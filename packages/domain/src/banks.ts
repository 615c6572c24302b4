/**
 * Israeli banks (DOMAIN-FACTS "Israeli banks"; seed 000 §3 reference data).
 * The bank code width lives here only: the Bank of Israel plans a longer
 * code from January 2027 (DOMAIN-FACTS "MASAV"), and the MASAV writer, the
 * validation and the console all read BANK_CODE_WIDTH.
 */
export const BANK_CODE_WIDTH = 2;

/** Bank codes in use and their names (Hebrew, English). */
export const ISRAELI_BANKS: Readonly<Record<string, { he: string; en: string }>> = {
  '03': { he: 'בנק אש', en: 'Esh' },
  '04': { he: 'בנק יהב', en: 'Yahav' },
  '09': { he: 'בנק הדואר', en: 'Postal Bank' },
  '10': { he: 'בנק לאומי', en: 'Leumi' },
  '11': { he: 'בנק דיסקונט', en: 'Discount' },
  '12': { he: 'בנק הפועלים', en: 'Hapoalim' },
  '13': { he: 'בנק אגוד', en: 'Igud' },
  '14': { he: 'בנק אוצר החייל', en: 'Otsar HaHayal' },
  '17': { he: 'בנק מרכנתיל דיסקונט', en: 'Mercantile Discount' },
  '18': { he: 'וואן זירו', en: 'One Zero' },
  '20': { he: 'בנק מזרחי טפחות', en: 'Mizrahi-Tefahot' },
  '22': { he: 'סיטיבנק', en: 'Citibank' },
  '23': { he: 'HSBC', en: 'HSBC' },
  '26': { he: 'יובנק', en: 'UBank' },
  '31': { he: 'הבינלאומי הראשון', en: 'First International' },
  '39': { he: 'בנק SBI', en: 'SBI (State Bank of India)' },
  '46': { he: 'בנק מסד', en: 'Massad' },
  '52': { he: 'פועלי אגודת ישראל', en: 'Poalei Agudat Israel' },
  '54': { he: 'בנק ירושלים', en: 'Jerusalem' },
};

/** A bank code as typed ("4", "04") in the canonical width, or null when not a known bank. */
export function normalizeBankCode(code: string | number): string | null {
  const s = String(code).trim();
  if (!/^\d{1,3}$/.test(s)) return null;
  const c = s.padStart(BANK_CODE_WIDTH, '0').slice(-BANK_CODE_WIDTH);
  if (Number(s) >= 10 ** BANK_CODE_WIDTH) return null;
  return ISRAELI_BANKS[c] ? c : null;
}
