import { localParts, type ReportMeta, type ReportValueType } from '@venue/domain';

/**
 * Labels of the report exports (.xlsx) in Hebrew and English. The console has
 * its own catalogue (apps/web/src/features/reports/i18n.*.json); a file
 * leaves the product, so the server writes the labels itself.
 */
type Lang = 'he' | 'en';
type Pair = [he: string, en: string];

const HEADERS: Record<string, Pair> = {
  at: ['תאריך ושעה', 'Date and time'],
  clientNumber: ['מספר לקוח', 'Client number'],
  clientName: ['לקוח', 'Client'],
  groupName: ['קבוצה', 'Group'],
  terminalName: ['עמדה', 'Terminal'],
  status: ['סטטוס', 'Status'],
  reason: ['סיבה', 'Reason'],
  amount: ['סכום', 'Amount'],
  invoiceNumber: ['חשבונית', 'Invoice'],
  method: ['אמצעי תשלום', 'Payment method'],
  lastFour: ['4 ספרות', 'Last four'],
  userName: ['משתמש', 'User'],
  items: ['פריטים', 'Items'],
  amountBeforeVat: ['לפני מע"מ', 'Before VAT'],
  vat: ['מע"מ', 'VAT'],
  total: ['סה"כ', 'Total'],
  paymentStatus: ['מצב תשלום', 'Payment status'],
  paidCash: ['מזומן', 'Cash'],
  paidCredit: ['אשראי', 'Credit'],
  paidBeats: ['יתרה', 'Balance'],
  paidTemp: ['יתרה זמנית', 'Temporary balance'],
  paidOther: ['אחר', 'Other'],
  description: ['תיאור', 'Description'],
  source: ['מקור', 'Source'],
  paid: ['שולם', 'Paid'],
  open: ['פתוח', 'Open'],
  itemType: ['סוג פריט', 'Item type'],
  purchases: ['רכישות', 'Purchases'],
  quantity: ['כמות', 'Quantity'],
  licenseExpiry: ['רישיון בתוקף עד', 'License valid until'],
  clients: ['לקוחות', 'Clients'],
  price: ['מחיר', 'Price'],
  active: ['פעיל', 'Active'],
  products: ['מוצרים', 'Products'],
  sold: ['מוצרים שנמכרו', 'Products sold'],
  fee: ['עמלות', 'Fees'],
  state: ['מצב', 'State'],
  amountDue: ['לתשלום', 'Due'],
  inserted: ['הוכנס', 'Inserted'],
  credited: ['נזקף', 'Credited'],
  changeDue: ['עודף', 'Change'],
  unpaid: ['עודף שלא הוחזר', 'Change not paid'],
  excess: ['עודף שנשמר', 'Excess kept'],
  cashBoxTotal: ['בקופה', 'Cash box'],
  excessAmount: ['סכום עודפים', 'Excess amount'],
  excessCount: ['מספר עודפים', 'Excess count'],
  success: ['הצליח', 'Succeeded'],
  error: ['שגיאה', 'Error'],
  startDate: ['מתאריך', 'From'],
  endDate: ['עד תאריך', 'To'],
  type: ['תוצאה', 'Outcome'],
  entranceAt: ['שעת כניסה', 'Entered at'],
  durationMinutes: ['משך (דקות)', 'Stay (minutes)'],
  rewardAmount: ['זיכוי', 'Credited back'],
  kind: ['סוג', 'Kind'],
  detail: ['פירוט', 'Details'],
  action: ['פעולה', 'Action'],
  entity: ['ישות', 'Entity'],
  entityId: ['מזהה', 'Id'],
  ip: ['כתובת', 'Address'],
  productName: ['מוצר', 'Product'],
  cells: ['שורות', 'Rows'],
  excessState: ['מצב העודף', 'Excess state'],
  collectedAt: ['נאסף בתאריך', 'Collected at'],
  inBox: ['בתיבת העודפים', 'In the excess box'],
  collected: ['נאסף', 'Collected'],
  coins: ['מטבעות', 'Coins'],
  bills: ['שטרות', 'Bills'],
  cashTotal: ['סה"כ מזומן בעמדה', 'Cash in the terminal'],
  insertedInPeriod: ['הוכנס בתקופה', 'Inserted in the period'],
  lastResetAt: ['ריקון אחרון', 'Last emptied'],
  terminals: ['עמדות', 'Terminals'],
  reference: ['אסמכתא', 'Reference'],
  brand: ['סוג כרטיס', 'Card brand'],
  saferState: ['מצב החיוב', 'Charge state'],
  reconciledAt: ['הוסדר בתאריך', 'Settled at'],
  awaiting: ['ממתין לבירור', 'Awaiting the provider'],
  refunded: ['חויב והוחזר', 'Charged and refunded'],
  refundFailed: ['חויב, ההחזר נכשל', 'Charged, refund failed'],
  notCharged: ['לא חויב', 'Not charged'],
  transferDate: ['תאריך ההעברה', 'Transfer date'],
  bank: ['בנק', 'Bank'],
  pending: ['ממתינות', 'Pending'],
  loaded: ['רישיונות שנטענו', 'Licenses loaded'],
  // Attendance, stamps and payroll (docs/attendance.md).
  entryAt: ['כניסה', 'Entry'],
  entryTerminalName: ['עמדת כניסה', 'Entry terminal'],
  exitAt: ['יציאה', 'Exit'],
  exitTerminalName: ['עמדת יציאה', 'Exit terminal'],
  minutes: ['שעות עבודה (דקות)', 'Worked (minutes)'],
  exitAutomatic: ['יציאה אוטומטית', 'Automatic exit'],
  edited: ['נערך', 'Edited'],
  comment: ['הערה', 'Comment'],
  day: ['יום', 'Day'],
  firstIn: ['כניסה ראשונה', 'First in'],
  lastOut: ['יציאה אחרונה', 'Last out'],
  shifts: ['משמרות', 'Shifts'],
  breakMinutes: ['הפסקות (דקות)', 'Breaks (minutes)'],
  positionName: ['תפקיד', 'Position'],
  days: ['ימי עבודה', 'Days worked'],
  regularMinutes: ['שעות רגילות (דקות)', 'Regular (minutes)'],
  overtime125Minutes: ['שעות נוספות 125% (דקות)', 'Overtime 125% (minutes)'],
  overtime150Minutes: ['שעות נוספות 150% (דקות)', 'Overtime 150% (minutes)'],
  nightMinutes: ['שעות לילה (דקות)', 'Night (minutes)'],
  shabbatMinutes: ['שעות שבת (דקות)', 'Shabbat (minutes)'],
  hourlyRate: ['תעריף לשעה', 'Hourly rate'],
  pay: ['שכר', 'Pay'],
  // The operator's cross-club reports (docs/operator.md).
  externalClubId: ['מספר מועדון', 'Club number'],
  clubName: ['מועדון', 'Club'],
  licensesLeft: ['רישיונות שנותרו', 'Licenses left'],
  used: ['רישיונות שנוצלו', 'Licenses used'],
  low: ['מעט רישיונות', 'Low'],
  month: ['חודש', 'Month'],
  entrances: ['כניסות', 'Entrances'],
  income: ['הכנסות', 'Income'],
  lastLoadAt: ['טעינה אחרונה', 'Last load'],
  clubs: ['מועדונים', 'Clubs'],
};

const TITLES: Record<string, Pair> = {
  totals: ['סה"כ', 'Totals'],
  entrances: ['כניסות', 'Entrances'],
  payments: ['תשלומים', 'Payments'],
  purchases: ['רכישות', 'Purchases'],
  debts: ['חובות', 'Debts'],
  financial: ['דוח כספי', 'Financial'],
  cashTransactions: ['תנועות מזומן', 'Cash transactions'],
  cashManagement: ['ניהול קופה', 'Cash management'],
  autoRenewal: ['היסטוריית חידוש אוטומטי', 'Automatic renewal history'],
  quickExits: ['יציאה מהירה', 'Quick exit'],
  activities: ['פעילות', 'Activities'],
  clientEntrances: ['כניסות לקוח', 'Client entrances'],
  managerActivity: ['פעילות מנהלים', 'Manager activity'],
  products: ['מוצרים', 'Products'],
  payoutErrors: ['עודף שלא הוחזר', 'Payout errors'],
  productMatrix: ['רכישות מוצרים לפי עמדה', 'Product purchases by terminal'],
  productSummary: ['סיכום מוצרים', 'Product summary'],
  licensesUsed: ['רישיונות בשימוש', 'Licenses used'],
  excessStatus: ['מצב עודפים', 'Excess status'],
  cashStatus: ['מצב מזומן', 'Cash status'],
  loadedLicenses: ['רישיונות שנטענו', 'Loaded licenses'],
  saferPayments: ['תשלומים בטוחים', 'Safer payments'],
  addLicensesRequests: ['בקשות להוספת רישיונות', 'Add-licenses requests'],
  attendance: ['נוכחות', 'Attendance'],
  stamps: ['החתמות', 'Stamps'],
  payroll: ['שכר', 'Payroll'],
  clubProducts: ['רכישות מוצרים לפי מועדונים', 'Product purchases by clubs'],
  clubLicenses: ['רישיונות לפי מועדון', 'Licenses by club'],
  clubMonthly: ['כניסות והכנסות לפי מועדון', 'Entrances and income by club'],
  clubLowLicenses: ['מועדונים עם מעט רישיונות', 'Clubs with low licenses'],
};

const SAFER_STATE: Record<number, Pair> = {
  1: ['ממתין לבירור', 'Awaiting the provider'],
  2: ['חויב והוחזר', 'Charged and refunded'],
  3: ['חויב, ההחזר נכשל', 'Charged, refund failed'],
  4: ['לא חויב', 'Not charged'],
};

const LICENSE_REQUEST_STATUS: Record<number, Pair> = {
  0: ['לא מוגדר', 'Undefined'],
  1: ['ממתין', 'Pending'],
  2: ['אושר ונטען', 'Approved and loaded'],
  3: ['נדחה על ידי המנהל', 'Rejected by manager'],
  4: ['בוטל על ידי הלקוח', 'Cancelled by customer'],
  5: ['בוטל על ידי המנהל', 'Cancelled by manager'],
};

const EXCESS_STATE: Record<number, Pair> = {
  1: ['בתיבת העודפים', 'In the excess box'],
  2: ['נאסף', 'Collected'],
};

const LICENSE_SOURCE: Record<number, Pair> = {
  1: ['כרטיס אשראי', 'Credit card'],
  2: ['העברה בנקאית', 'Bank transfer'],
  3: ['נטען על ידי המפעיל', 'Loaded by the operator'],
};

const QUICK_EXIT: Record<number, Pair> = {
  1: ['במנוי', 'By subscription'],
  2: ['בחיוב', 'By charge'],
  3: ['בתשלום', 'By payment'],
  4: ['בונוס', 'Bonus'],
  5: ['זיכוי בוצע', 'Credit processed'],
  6: ['נכשל', 'Failed'],
  7: ['לא עבר זמן מינימום', 'Minimum stay not met'],
  8: ['עבר הזמן המרבי', 'Stay expired'],
  9: ['כניסה ללא תשלום', 'Entrance cost nothing'],
};

const ACTIVITY_KIND: Record<number, Pair> = {
  1: ['כניסה', 'Entrance'],
  2: ['רכישה', 'Purchase'],
};

const PAYMENT_METHODS: Record<number, Pair> = {
  0: ['מזומן', 'Cash'],
  1: ['כרטיס אשראי', 'Credit card'],
  2: ['כרטיס שמור', 'Stored card'],
  3: ['יתרה זמנית', 'Temporary balance'],
  4: ['אשראי EMV', 'Card (EMV)'],
  5: ['מס"ב', 'MASAV'],
  6: ['חינם', 'Free'],
  7: ['יתרה', 'Balance'],
};

const ITEM_TYPES: Record<number, Pair> = {
  1: ['מנוי', 'Subscription'],
  2: ['טעינת כסף', 'Money load'],
  3: ['מגבת', 'Towel'],
  4: ['כניסה', 'Entrance'],
  5: ['תשלום חוב', 'Debt payment'],
  6: ['רישיון', 'License'],
  10: ['מוצר', 'Product'],
};

const PURCHASE_STATUS: Record<number, Pair> = {
  1: ['שולם', 'Paid'],
  2: ['ממתין', 'Pending'],
  3: ['הוחזר', 'Refunded'],
};

const DEBT_SOURCES: Record<string, Pair> = {
  manual: ['ידני', 'Manual'],
  autorenew: ['חידוש אוטומטי', 'Automatic renewal'],
  masav: ['מס"ב', 'MASAV'],
};

const CASH_STATES: Record<string, Pair> = {
  begin: ['התחיל', 'Begun'],
  startPayout: ['מחזיר עודף', 'Paying change'],
  closed: ['הושלם', 'Completed'],
  canceled: ['בוטל', 'Canceled'],
  rejected: ['נדחה', 'Rejected'],
  frozen: ['מוקפא', 'Frozen'],
  new: ['חדש', 'New'],
};

const pick = (p: Pair | undefined, lang: Lang, fallback: string) => (p ? p[lang === 'he' ? 0 : 1] : fallback);

/** The items of a purchase as one line: "2 × Towel, Money load" (an item without a name shows its type). */
export function itemsText(v: unknown, lang: Lang): string | null {
  if (v == null) return null;
  const list = (typeof v === 'string' ? JSON.parse(v) : v) as { t: number; n: string; q: number }[];
  return list
    .map((i) => {
      const name = i.n || pick(ITEM_TYPES[i.t], lang, String(i.t));
      return i.q > 1 ? `${i.q} × ${name}` : name;
    })
    .join(', ');
}

/** Column header of an export. */
export function exportHeader(_meta: ReportMeta, key: string, lang: Lang): string {
  return pick(HEADERS[key], lang, key);
}

/** Sheet title or the totals label. */
export function exportTitle(key: string, lang: Lang): string {
  return pick(TITLES[key], lang, key);
}

/** A cell of an export: money in major units (₪ 12.50 → 12.5), instants in the club's local time, enums as labels. */
export function exportValue(
  type: ReportValueType,
  v: unknown,
  lang: Lang,
  timeZone: string,
): string | number | boolean | null {
  if (v == null) return null;
  switch (type) {
    case 'money':
      return Number(v) / 100;
    case 'datetime': {
      const p = localParts(new Date(v as string), timeZone);
      const two = (n: number) => String(n).padStart(2, '0');
      return `${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}`;
    }
    case 'paymentMethod':
      return pick(PAYMENT_METHODS[Number(v)], lang, String(v));
    case 'itemType':
      return pick(ITEM_TYPES[Number(v)], lang, String(v));
    case 'purchaseStatus':
      return pick(PURCHASE_STATUS[Number(v)], lang, String(v));
    case 'debtSource':
      return pick(DEBT_SOURCES[String(v)], lang, String(v));
    case 'cashState':
      return pick(CASH_STATES[String(v)], lang, String(v));
    case 'quickExitType':
      return pick(QUICK_EXIT[Number(v)], lang, String(v));
    case 'activityKind':
      return pick(ACTIVITY_KIND[Number(v)], lang, String(v));
    case 'excessState':
      return pick(EXCESS_STATE[Number(v)], lang, String(v));
    case 'licenseSource':
      return pick(LICENSE_SOURCE[Number(v)], lang, String(v));
    case 'saferState':
      return pick(SAFER_STATE[Number(v)], lang, String(v));
    case 'licenseRequestStatus':
      return pick(LICENSE_REQUEST_STATUS[Number(v)], lang, String(v));
    case 'entranceStatus':
    case 'reason':
      return Number(v);
    case 'auditAction':
      return String(v);
    case 'text':
    case 'date':
      return String(v);
    case 'bool':
      return v ? pick(['כן', 'Yes'], lang, 'Yes') : pick(['לא', 'No'], lang, 'No');
    default:
      return Number(v);
  }
}
