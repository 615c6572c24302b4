import { BULK_ACTIONS } from './schemas/clients.js';
import { Reason } from './statuses.js';

/**
 * The one label catalogue of the product's codes (seed 001 §1 two languages;
 * docs/reports.md "Formats and exports"): entrance statuses, reasons,
 * payment methods, item types, purchase statuses, quick-exit outcomes 1–12,
 * cash states and errors, debt sources, activity kinds, excess states,
 * license sources and request statuses, safer-payment states, audit actions
 * and entities, terminal connection types. Hebrew and English.
 *
 * The console's i18n catalogue takes these labels at the keys
 * {@link codeI18nKey} names (apps/web/src/app/catalogues.ts merges them, and
 * a key defined twice is an error there), and the server's spreadsheet
 * exports read them with {@link codeLabel}: one copy, two readers.
 */
export type LabelLang = 'he' | 'en';
type Pair = readonly [he: string, en: string];

const ENTRANCE_STATUS = {
  1: ['כניסה אושרה', 'Entry approved'],
  2: ['המנוי פג', 'Subscription expired'],
  3: ['שגיאה כללית', 'General error'],
  4: ['סגור לקבוצת הלקוח', "Closed to the client's group"],
  5: ['אין יתרה', 'No balance'],
  6: ['מכסת הכניסות נוצלה', 'Entry quota used'],
  7: ['כניסה חוזרת', 'Re-entry'],
  8: ['הלקוח לא נמצא', 'Customer not found'],
  9: ['שגיאה בתשלום', 'Payment error'],
  10: ['תוקף הרישיון פג', 'License expired'],
  11: ['העמדה לא אושרה', 'Terminal not approved'],
  12: ['מגבלת כניסות כללית', 'Global entrances limit'],
  13: ['חשד לכניסה חוזרת מהירה', 'Rapid re-entry suspicion'],
  14: ['נעילת חירום', 'Lockdown'],
  15: ['האזור מלא', 'Area at capacity'],
  16: ['נכנס ולא יצא', 'Anti-passback'],
  9999: ['תשלום', 'Payment'],
} as const satisfies Record<number, Pair>;

/** Reasons by name (statuses.ts `Reason`; the number is stored, the name is the key). */
const REASON = {
  EntryBySubscription: ['כניסה במנוי', 'Entry by subscription'],
  EntryByBonus: ['כניסה בבונוס', 'Entry by bonus'],
  EntryByChargedMoney: ['כניסה מיתרה כספית', 'Entry by charged money'],
  EntryFreeOpen: ['כניסה חופשית', 'Free entry'],
  EntryByManager: ['כניסה על ידי מנהל', 'Entry by manager'],
  EntryByParentSubscription: ['כניסה במנוי ההורה', "Entry by parent's subscription"],
  EntryByParentMoney: ['כניסה מיתרת ההורה', "Entry by parent's money"],
  EntryByPayment: ['כניסה בתשלום', 'Entry by payment'],
  PaymentForSubscription: ['תשלום עבור מנוי', 'Payment for subscription'],
  PaymentForEntrance: ['תשלום עבור כניסה', 'Payment for entrance'],
  PaymentForMoneyLoad: ['תשלום עבור טעינת כסף', 'Payment for money load'],
  PaymentForLicense: ['תשלום עבור רישיון', 'Payment for license'],
  PaymentForTempBalance: ['תשלום עבור יתרה זמנית', 'Payment for temporary balance'],
  PaymentForDebt: ['תשלום חוב', 'Payment of debt'],
  PaymentForMultipleItems: ['תשלום עבור מספר פריטים', 'Payment for several items'],
  PaymentByManager: ['תשלום על ידי מנהל', 'Payment by manager'],
  PaymentByParent: ['תשלום על ידי ההורה', 'Payment by parent'],
  SubscriptionExpired: ['המנוי פג', 'Subscription expired'],
  ClosedToGroup: ['סגור לקבוצה', 'Closed to group'],
  LicenseExpired: ['תוקף הרישיון פג', 'License expired'],
  EntryQuotaExceeded: ['חריגה ממכסת הכניסות', 'Entry quota exceeded'],
  DoubleEntry: ['כניסה כפולה', 'Double entry'],
  EntryLoadLimiting: ['הגבלת עומס כניסות', 'Entry load limiting'],
  TooLittleTimeBetweenEntries: ['זמן קצר מדי בין כניסות', 'Too little time between entries'],
  NoBooking: ['אין תור', 'No booking'],
  OutsideBookingWindow: ['מחוץ לחלון התור', 'Outside the booking window'],
  BookingCodeUnknown: ['קוד חד-פעמי שגוי', 'Wrong one-time code'],
  BookingCodeUsed: ['הקוד החד-פעמי כבר נוצל', 'One-time code already used'],
  BookingCodeExpired: ['הקוד החד-פעמי אינו בתוקף עכשיו', 'One-time code not valid now'],
  NoBalance: ['אין יתרה', 'No balance'],
  ClientNotFound: ['הלקוח לא נמצא', 'Client not found'],
  TerminalNotApproved: ['העמדה לא אושרה', 'Terminal not approved'],
  PaymentError: ['שגיאה בתשלום', 'Payment error'],
  ClientInactive: ['הלקוח אינו פעיל', 'Client inactive'],
  EntryByStaffOverride: ['כניסה באישור צוות', 'Admitted by staff override'],
  Lockdown: ['נעילת חירום: הכניסה נחסמה', 'Lockdown: entry refused'],
  EntryLockdownOverride: ['כניסה בזמן נעילה (צוות מורשה)', 'Entry during lockdown (authorised staff)'],
  EntryEmergencyOpen: ['פתיחת חירום של כל השערים', 'Emergency: all gates open'],
  AreaFull: ['האזור הגיע לתפוסה המרבית', 'The area is at capacity'],
  AntiPassback: ['נכנס ולא יצא מאז', 'Entered and not exited since'],
  unknown: ['אחר', 'Other'],
} as const satisfies Record<keyof typeof Reason | 'unknown', Pair>;

const PAYMENT_METHOD = {
  0: ['מזומן', 'Cash'],
  1: ['כרטיס אשראי', 'Credit card'],
  2: ['כרטיס שמור', 'Stored card'],
  3: ['יתרה זמנית', 'Temporary balance'],
  4: ['קורא כרטיסים (EMV)', 'Card reader (EMV)'],
  5: ['מס״ב (הוראת קבע)', 'MASAV (bank)'],
  6: ['חינם', 'Free'],
  7: ['יתרה (ביטים)', 'Balance (beats)'],
} as const satisfies Record<number, Pair>;

const ITEM_TYPE = {
  1: ['מנוי', 'Subscription'],
  2: ['טעינת כסף', 'Money load'],
  3: ['מגבת', 'Towel'],
  4: ['כניסה', 'Entrance'],
  5: ['תשלום חוב', 'Debt payment'],
  6: ['רישיון', 'License'],
  10: ['מוצר', 'Product'],
} as const satisfies Record<number, Pair>;

const PURCHASE_STATUS = {
  1: ['שולם', 'Paid'],
  2: ['ממתין', 'Pending'],
  3: ['הוחזר', 'Refunded'],
  4: ['בוטל', 'Cancelled'],
} as const satisfies Record<number, Pair>;

/** Quick-exit outcomes 1–12 (gate.ts QuickExitOutcome, docs/entrance-reasons.md "Quick exit"). */
const QUICK_EXIT = {
  1: ['במנוי', 'By subscription'],
  2: ['בחיוב', 'By charge'],
  3: ['בתשלום', 'By payment'],
  4: ['בונוס', 'Bonus'],
  5: ['זיכוי בוצע', 'Credit processed'],
  6: ['נכשל', 'Failed'],
  7: ['לא עבר זמן מינימום', 'Minimum stay not met'],
  8: ['עבר הזמן המרבי', 'Stay expired'],
  9: ['כניסה ללא תשלום', 'Entrance cost nothing'],
  10: ['אין כניסה בשעות האחרונות', 'No entrance in the last hours'],
  11: ['יציאה מהירה לא מוגדרת', 'Quick exit not configured'],
  12: ['היציאה כבר נרשמה', 'Exit already recorded'],
} as const satisfies Record<number, Pair>;

const ACTIVITY_KIND = {
  1: ['כניסה', 'Entrance'],
  2: ['רכישה', 'Purchase'],
} as const satisfies Record<number, Pair>;

const CASH_STATE = {
  begin: ['התחיל', 'Begun'],
  paymentCompleted: ['התשלום הושלם', 'Payment completed'],
  paymentApproved: ['התשלום אושר', 'Payment approved'],
  startPayout: ['מחזיר עודף', 'Paying change'],
  closed: ['הושלם', 'Completed'],
  canceled: ['בוטל', 'Canceled'],
  rejected: ['נדחה', 'Rejected'],
  frozen: ['מוקפא', 'Frozen'],
  new: ['חדש', 'New'],
} as const satisfies Record<string, Pair>;

/** Cash change errors (terminal.ts CASH_ERRORS, seed 001 §8). */
const CASH_ERROR = {
  COIN_CHANGE_ERROR: ['שגיאה בהחזרת עודף במטבעות', 'Coin change error'],
  BILL_CHANGE_ERROR: ['שגיאה בהחזרת עודף בשטרות', 'Bill change error'],
  VALID_UNAUTHORIZED_BILL: ['שטר תקין שאינו מורשה', 'Valid but unauthorized bill'],
} as const satisfies Record<string, Pair>;

const DEBT_SOURCE = {
  manual: ['ידני', 'Manual'],
  autorenew: ['חידוש אוטומטי', 'Automatic renewal'],
  masav: ['מס"ב', 'MASAV'],
} as const satisfies Record<string, Pair>;

const EXCESS_STATE = {
  1: ['בתיבת העודפים', 'In the excess box'],
  2: ['נאסף', 'Collected'],
} as const satisfies Record<number, Pair>;

const LICENSE_SOURCE = {
  1: ['כרטיס אשראי', 'Credit card'],
  2: ['העברה בנקאית', 'Bank transfer'],
  3: ['נטען על ידי המפעיל', 'Loaded by the operator'],
} as const satisfies Record<number, Pair>;

const SAFER_STATE = {
  1: ['ממתין לבירור', 'Awaiting the provider'],
  2: ['חויב והוחזר', 'Charged and refunded'],
  3: ['חויב, ההחזר נכשל', 'Charged, refund failed'],
  4: ['לא חויב', 'Not charged'],
} as const satisfies Record<number, Pair>;

const LICENSE_REQUEST_STATUS = {
  0: ['לא מוגדר', 'Undefined'],
  1: ['ממתין', 'Pending'],
  2: ['אושר ונטען', 'Approved and loaded'],
  3: ['נדחה על ידי המנהל', 'Rejected by manager'],
  4: ['בוטל על ידי הלקוח', 'Cancelled by customer'],
  5: ['בוטל על ידי המנהל', 'Cancelled by manager'],
} as const satisfies Record<number, Pair>;

/** How a terminal's cash hardware is connected (enums.ts TerminalConnectionType; Paylink is the device's name). */
const CONNECTION_TYPE = {
  1: ['ממסר USB', 'USB relay'],
  2: ['התקן Paylink', 'Paylink device'],
} as const satisfies Record<number, Pair>;

const BULK_ACTION_LABELS = {
  changeGroup: ['שינוי קבוצה (פעולה מרובה)', 'Change group (bulk)'],
  extendSubscription: ['הארכת מנוי (פעולה מרובה)', 'Extend subscription (bulk)'],
  setSubscriptionEnd: ['קביעת סיום מנוי (פעולה מרובה)', 'Set subscription end (bulk)'],
  setStatus: ['שינוי מצב (פעולה מרובה)', 'Change status (bulk)'],
  setLicenseExpiry: ['קביעת תוקף רישיון (פעולה מרובה)', 'Set license expiry (bulk)'],
  delete: ['מחיקה (פעולה מרובה)', 'Delete (bulk)'],
  restore: ['שחזור (פעולה מרובה)', 'Restore (bulk)'],
  addBeats: ['הוספת יתרה (פעולה מרובה)', 'Add balance (bulk)'],
} as const satisfies Record<(typeof BULK_ACTIONS)[number], Pair>;

/** Actions of the audit log (lib/audit.ts; the manager activity report). */
const AUDIT_ACTION_BASE = {
  create: ['יצירה', 'Create'],
  update: ['עדכון', 'Update'],
  delete: ['מחיקה', 'Delete'],
  restore: ['שחזור', 'Restore'],
  approve: ['אישור', 'Approve'],
  refund: ['זיכוי', 'Refund'],
  acceptTerms: ['אישור תנאי שימוש', 'Accept terms'],
  execute: ['הרצה', 'Execute'],
  disable: ['השבתה', 'Disable'],
  enable: ['הפעלה', 'Enable'],
  handle: ['טיפול', 'Handle'],
  'terminal-action': ['פעולה מרחוק בעמדה', 'Remote terminal action'],
  'reset-cash-levels': ['ריקון קופה', 'Empty the cash'],
  'load-cash': ['טעינת מזומן', 'Load cash'],
  run: ['הרצה', 'Run'],
  purchase: ['רכישה', 'Purchase'],
  view: ['צפייה', 'View'],
  enroll: ['רישום זיהוי', 'Enrol identification'],
  import: ['ייבוא', 'Import'],
  'login.failed': ['כניסה נכשלה', 'Sign-in failed'],
  'login.locked': ['כניסה נחסמה זמנית', 'Sign-in locked'],
  'login.attack': ['ניסיונות כניסה חוזרים', 'Sustained sign-in attempts'],
  override: ['אישור כניסה למרות סירוב', 'Admit despite a refusal'],
  openAll: ['פתיחת חירום של כל השערים', 'Emergency open-all'],
  releaseOpenAll: ['סיום פתיחת החירום', 'Open-all released'],
  lockdown: ['נעילת חירום', 'Lockdown'],
  releaseLockdown: ['סיום נעילת החירום', 'Lockdown released'],
  alarm: ['אזעקה מעמדה', 'Alarm input at a terminal'],
  checkOut: ['הוצאה מהמתחם', 'Checked out'],
  erase: ['מחיקת פרטים אישיים', 'Erase personal data'],
  copy: ['עותק מידע אישי', 'Copy of personal data'],
} as const satisfies Record<string, Pair>;
const AUDIT_ACTION: Record<string, Pair> = {
  ...AUDIT_ACTION_BASE,
  ...Object.fromEntries(Object.entries(BULK_ACTION_LABELS).map(([k, v]) => [`bulk:${k}`, v])),
};

/** Entities of the audit log. */
const AUDIT_ENTITY = {
  attendanceLog: ['רישום נוכחות', 'Attendance record'],
  autoRenew: ['חידוש אוטומטי', 'Automatic renewal'],
  autoRenewSettings: ['הגדרות חידוש אוטומטי', 'Automatic renewal settings'],
  'biometric.client': ['זיהוי ביומטרי של לקוח', "Client's biometric data"],
  'biometric.face': ['תבנית פנים', 'Face template'],
  'biometric.faceImages': ['תמונות פנים', 'Face images'],
  'biometric.fingerprint': ['טביעת אצבע', 'Fingerprint'],
  calendarFeed: ['לוח שנה מקוון', 'Calendar feed'],
  chargeClub: ['חיוב המועדון', 'Club charge'],
  clubCharge: ['חיוב שנתי של מועדון', "A club's yearly charge"],
  client: ['לקוח', 'Client'],
  'client.bonusEntries': ['כניסות בונוס', 'Bonus entrances'],
  'client.card': ['כרטיס לקוח', 'Client card'],
  club: ['מועדון', 'Club'],
  debt: ['חוב', 'Debt'],
  employeePosition: ['תפקיד', 'Position'],
  entrance: ['כניסה', 'Entrance'],
  gateSafety: ['מצב חירום בשערים', 'Gate emergency state'],
  gateArea: ['אזור תפוסה', 'Occupancy area'],
  lockdownOverride: ['הרשאת מעבר בנעילה', 'Lockdown override'],
  feedbackCategory: ['קטגוריית משוב', 'Feedback category'],
  globalMessage: ['הודעה כללית', 'Global message'],
  group: ['קבוצה', 'Group'],
  hashavshevet: ['חשבשבת', 'Hashavshevet'],
  incident: ['תקלה', 'Incident'],
  incidentWebhook: ['חיבור לדיווח תקלות', 'Incident webhook'],
  notificationSettings: ['הגדרות הודעות לחברים', 'Notification settings'],
  notificationTemplate: ['תבנית הודעה', 'Notification template'],
  notificationChoices: ['העדפות הודעות של לקוח', "Client's notification choices"],
  licenseLoad: ['טעינת רישיונות', 'License load'],
  licenseOrder: ['הזמנת רישיונות', 'License order'],
  licenseRequest: ['בקשת רישיונות', 'License request'],
  login: ['כניסה למערכת', 'Sign-in'],
  maintenanceSql: ['שאילתת תחזוקה', 'Maintenance query'],
  masavFile: ['קובץ מס"ב', 'MASAV file'],
  masavReturn: ['קובץ החזרות מס"ב', 'MASAV return file'],
  invoiceMailSettings: ['הגדרות דואר לחשבוניות', 'Invoice e-mail settings'],
  masavSettings: ['הגדרות מס"ב', 'MASAV settings'],
  paymentMethod: ['אמצעי תשלום', 'Payment method'],
  product: ['מוצר', 'Product'],
  purchase: ['רכישה', 'Purchase'],
  schedule: ['לוח זמנים', 'Schedule'],
  scheduleToGroup: ['שיוך לוח זמנים לקבוצה', 'Schedule of a group'],
  scriptVersion: ['גרסת סקריפט', 'Script version'],
  sumit: ['סאמיט', 'Sumit'],
  terminal: ['עמדה', 'Terminal'],
  terminalMessage: ['הודעה לעמדה', 'Terminal message'],
  user: ['משתמש', 'User'],
} as const satisfies Record<string, Pair>;

/** What a read of personal data was about (contract/route.ts PERSONAL_DATA_KINDS; the access-log report). */
const PERSONAL_DATA_KIND = {
  details: ['פרטים אישיים', 'Personal details'],
  entrances: ['היסטוריית כניסות', 'Entrance history'],
  documents: ['מסמכים', 'Documents'],
  money: ['כספים', 'Money'],
  biometrics: ['זיהוי ביומטרי', 'Biometric data'],
  copy: ['עותק מלא', 'Full copy'],
  erase: ['מחיקה', 'Erasure'],
} as const satisfies Record<string, Pair>;

/** A bookable room's kind (schemas/appointments.ts BOOKING_RESOURCE_KINDS; the booking reports). */
const BOOKING_KIND = {
  prepBath: ['חדר הכנה עם אמבטיה', 'Preparation room (bath)'],
  prepShower: ['חדר הכנה עם מקלחת', 'Preparation room (shower)'],
  pool: ['בור טבילה', 'Immersion pool'],
} as const satisfies Record<string, Pair>;

const YES_NO = {
  1: ['כן', 'Yes'],
  0: ['לא', 'No'],
} as const satisfies Record<number, Pair>;

/** Every kind of code with labels, and its labels by code. */
export const CODE_LABELS = {
  entranceStatus: ENTRANCE_STATUS,
  reason: REASON,
  paymentMethod: PAYMENT_METHOD,
  itemType: ITEM_TYPE,
  purchaseStatus: PURCHASE_STATUS,
  quickExitType: QUICK_EXIT,
  activityKind: ACTIVITY_KIND,
  cashState: CASH_STATE,
  cashError: CASH_ERROR,
  debtSource: DEBT_SOURCE,
  excessState: EXCESS_STATE,
  licenseSource: LICENSE_SOURCE,
  saferState: SAFER_STATE,
  licenseRequestStatus: LICENSE_REQUEST_STATUS,
  connectionType: CONNECTION_TYPE,
  auditAction: AUDIT_ACTION,
  auditEntity: AUDIT_ENTITY,
  personalDataKind: PERSONAL_DATA_KIND,
  bookingKind: BOOKING_KIND,
  yesNo: YES_NO,
} as const satisfies Record<string, Record<string | number, Pair>>;
export type CodeKind = keyof typeof CODE_LABELS;

/** An action of the audit log: a code the catalogue labels (lib/audit.ts and schema.ts audit_log.action take only these). */
export type AuditAction = keyof typeof AUDIT_ACTION_BASE | `bulk:${(typeof BULK_ACTIONS)[number]}`;
/** An entity of the audit log (a code the catalogue labels). */
export type AuditEntity = keyof typeof AUDIT_ENTITY;

/**
 * Where the console's i18n catalogue holds each kind's labels: a key prefix
 * (the code follows). These are the keys the screens already read
 * (`status.4`, `reason.DoubleEntry`, `money.method_1`, …).
 */
export const CODE_I18N_PREFIX: Record<CodeKind, string> = {
  entranceStatus: 'status.',
  reason: 'reason.',
  paymentMethod: 'money.method_',
  itemType: 'money.itemType.',
  purchaseStatus: 'money.paymentStatus.',
  quickExitType: 'reports.quickExitType.',
  activityKind: 'reports.activityKind.',
  cashState: 'reports.cashState.',
  cashError: 'code.cashError.',
  debtSource: 'reports.debtSource.',
  excessState: 'reports.excessState.',
  licenseSource: 'reports.licenseSource.',
  saferState: 'reports.saferState.',
  licenseRequestStatus: 'licenses.status.',
  connectionType: 'code.connectionType.',
  auditAction: 'code.auditAction.',
  auditEntity: 'code.auditEntity.',
  personalDataKind: 'code.personalDataKind.',
  bookingKind: 'code.bookingKind.',
  yesNo: 'code.yesNo.',
};

/** A code as the last part of an i18n key: the key and namespace separators (`.`, `:`) become `_`. */
const keyPart = (code: string | number) => String(code).replace(/[.:]/g, '_');

/** The label table's key of a code: a reason's number is looked up by its name. */
function tableKey(kind: CodeKind, code: string | number): string {
  if (kind === 'reason') {
    const name = Object.entries(Reason).find(([, v]) => v === Number(code))?.[0];
    return name ?? 'unknown';
  }
  return String(code);
}

/** The console's i18n key of a code's label, e.g. `('entranceStatus', 4)` → `status.4`, a reason by its name. */
export function codeI18nKey(kind: CodeKind, code: string | number): string {
  return `${CODE_I18N_PREFIX[kind]}${keyPart(tableKey(kind, code))}`;
}

/** Yes or no in `lang`, for a boolean cell of a spreadsheet (the `yesNo` labels). */
export function yesNoText(v: boolean, lang: LabelLang): string {
  return codeLabel('yesNo', v ? 1 : 0, lang);
}

/**
 * The label of a code in a language; an unknown code is shown as itself
 * (a number the catalogue does not know yet is better shown than hidden).
 */
export function codeLabel(kind: CodeKind, code: string | number, lang: LabelLang): string {
  const table = CODE_LABELS[kind] as Record<string, Pair>;
  const pair = table[tableKey(kind, code)];
  return pair ? pair[lang === 'he' ? 0 : 1] : String(code);
}

/**
 * Every label as flat i18n entries `{key: text}` of one language, for the
 * console's catalogue (apps/web/src/app/catalogues.ts).
 */
export function codeLabelEntries(lang: LabelLang): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kind of Object.keys(CODE_LABELS) as CodeKind[]) {
    for (const [code, pair] of Object.entries(CODE_LABELS[kind] as Record<string, Pair>)) {
      out[`${CODE_I18N_PREFIX[kind]}${keyPart(code)}`] = pair[lang === 'he' ? 0 : 1];
    }
  }
  return out;
}
