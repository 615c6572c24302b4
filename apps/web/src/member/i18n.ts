import { createContext, useContext } from 'react';

/**
 * The member app's words (issue 37; docs/members.md): Hebrew by default,
 * English on request, kept here rather than in the console's catalogues so
 * the app loads no i18n library. `{name}` is filled by `t(key, {name})`.
 */
const he = {
  appTitle: 'המנוי שלי',
  language: 'English',
  languageLabel: 'Switch to English',
  signInTitle: 'כניסה למנויים',
  signInLead: 'נשלח קוד חד-פעמי לטלפון או לדוא"ל הרשומים אצלנו.',
  contact: 'טלפון או דוא"ל',
  contactHint: 'למשל 050-1234567',
  sendCode: 'שליחת קוד',
  codeSentSms: 'שלחנו קוד ב-SMS. הוא בתוקף 10 דקות.',
  codeSentEmail: 'שלחנו קוד בדוא"ל. הוא בתוקף 10 דקות.',
  code: 'הקוד שקיבלת (6 ספרות)',
  signIn: 'כניסה',
  otherContact: 'טלפון או דוא"ל אחר',
  resend: 'שליחת קוד חדש',
  chooseClub: 'באיזה מועדון?',
  signOut: 'יציאה',
  tabSubscription: 'מנוי',
  tabBooking: 'תורים',
  subscription: 'המנוי',
  tabMoney: 'תשלומים',
  money: 'תשלומים',
  tabDocuments: 'מסמכים',
  tabEntrances: 'כניסות',
  tabProfile: 'פרטים',
  who: 'של מי?',
  me: 'שלי',
  group: 'קבוצה',
  subscriptionEnd: 'המנוי בתוקף עד',
  noSubscription: 'אין מנוי פעיל',
  daysLeft: 'נותרו {n} ימים',
  ended: 'המנוי הסתיים',
  unlimited: 'ללא הגבלה',
  renew: 'חידוש המנוי ב-{amount}',
  weekHours: 'שעות הפתיחה השבוע',
  weekAt: 'לפי לוח הזמנים ב{place}',
  closedDay: 'סגור',
  noGroup: 'לא שויכת לקבוצה, ולכן אין שעות להצגה.',
  today: 'היום',
  balance: 'יתרה',
  tempBalance: 'יתרה זמנית',
  debts: 'חובות פתוחים',
  noDebts: 'אין חובות פתוחים.',
  pay: 'תשלום {amount}',
  loadTitle: 'טעינת יתרה',
  amountShekels: 'סכום בשקלים',
  load: 'לתשלום',
  payNote: 'התשלום בכרטיס אשראי מתבצע בדף המאובטח של חברת הסליקה.',
  documents: 'חשבוניות וקבלות',
  noDocuments: 'אין עדיין מסמכים.',
  download: 'הורדה',
  docNumber: '{kind} מס׳ {number}',
  kind320: 'חשבונית מס קבלה',
  kind330: 'חשבונית זיכוי',
  kind400: 'קבלה',
  kind410: 'קבלת החזר',
  entrances: 'הכניסות שלי',
  noEntrances: 'אין כניסות רשומות.',
  entered: 'כניסה',
  refused: 'לא אושרה',
  payment: 'תשלום',
  contactTitle: 'פרטי קשר',
  phone: 'טלפון',
  email: 'דוא"ל',
  save: 'שמירה',
  saved: 'נשמר',
  noticesTitle: 'הודעות',
  noticesEmail: 'הודעות בדוא"ל (חידוש, חוב, יתרה נמוכה)',
  noticesSms: 'הודעות SMS',
  noticesNote: 'קוד הכניסה לאפליקציה נשלח תמיד, גם כשההודעות כבויות.',
  checkoutTitle: 'תשלום',
  checkoutPending: 'ממתינים לאישור מחברת הסליקה…',
  checkoutPaid: 'התשלום התקבל. תודה!',
  checkoutFailed: 'התשלום לא בוצע ({reason}).',
  downloadDocument: 'הורדת החשבונית',
  back: 'חזרה',
  loading: 'טוען…',
  required: 'שדה חובה',
  invalidCode: 'יש להקליד 6 ספרות',
  genericError: 'משהו השתבש. אפשר לנסות שוב.',
  networkError: 'אין חיבור לשרת. יש לבדוק את החיבור ולנסות שוב.',
  errors: {
    VALIDATION_ERROR: 'יש לבדוק את מה שהוקלד',
    MEMBER_CODE_WRONG: 'הקוד שגוי או שפג תוקפו. אפשר לבקש קוד חדש',
    MEMBER_CODE_LIMIT: 'נשלחו יותר מדי קודים. אפשר לנסות שוב בעוד {seconds} שניות',
    LOGIN_LOCKED: 'יותר מדי ניסיונות שגויים. אפשר לנסות שוב בעוד {seconds} שניות',
    TOO_MANY_REQUESTS: 'יותר מדי בקשות. יש להמתין מעט',
    NOT_FOUND: 'לא נמצא',
    NOTHING_TO_RENEW: 'אין מנוי לחידוש',
    CHARGE_AMOUNT_OUT_OF_RANGE: 'הסכום מחוץ לטווח שהמועדון מאפשר',
    invalidPhone: 'מספר טלפון לא תקין',
    invalidEmail: 'כתובת דוא"ל לא תקינה',
    invalidAmount: 'סכום לא תקין',
  },
  weekday: ['ראשון', 'שני', 'שלישי', 'רביעי', 'חמישי', 'שישי', 'שבת'],
};

export type Words = typeof he;

const en: Words = {
  appTitle: 'My membership',
  language: 'עברית',
  languageLabel: 'לעברית',
  signInTitle: 'Member sign-in',
  signInLead: 'We send a one-time code to the phone or e-mail we have on file.',
  contact: 'Phone or e-mail',
  contactHint: 'e.g. 050-1234567',
  sendCode: 'Send code',
  codeSentSms: 'We sent a code by SMS. It is valid for 10 minutes.',
  codeSentEmail: 'We sent a code by e-mail. It is valid for 10 minutes.',
  code: 'The code you received (6 digits)',
  signIn: 'Sign in',
  otherContact: 'Another phone or e-mail',
  resend: 'Send a new code',
  chooseClub: 'Which club?',
  signOut: 'Sign out',
  tabSubscription: 'Plan',
  tabBooking: 'Book',
  subscription: 'Subscription',
  tabMoney: 'Money',
  money: 'Payments',
  tabDocuments: 'Receipts',
  tabEntrances: 'Visits',
  tabProfile: 'Details',
  who: 'Whose?',
  me: 'Mine',
  group: 'Group',
  subscriptionEnd: 'Subscription valid until',
  noSubscription: 'No active subscription',
  daysLeft: '{n} days left',
  ended: 'The subscription has ended',
  unlimited: 'Unlimited',
  renew: 'Renew for {amount}',
  weekHours: "This week's opening hours",
  weekAt: 'By the times at {place}',
  closedDay: 'Closed',
  noGroup: 'You are not in a group, so there are no hours to show.',
  today: 'Today',
  balance: 'Balance',
  tempBalance: 'Temporary balance',
  debts: 'Open debts',
  noDebts: 'No open debts.',
  pay: 'Pay {amount}',
  loadTitle: 'Load balance',
  amountShekels: 'Amount in shekels',
  load: 'Pay',
  payNote: "Card payments are made on the clearing company's secure page.",
  documents: 'Invoices and receipts',
  noDocuments: 'No documents yet.',
  download: 'Download',
  docNumber: '{kind} no. {number}',
  kind320: 'Tax invoice-receipt',
  kind330: 'Credit invoice',
  kind400: 'Receipt',
  kind410: 'Refund receipt',
  entrances: 'My entrances',
  noEntrances: 'No entrances recorded.',
  entered: 'Entered',
  refused: 'Not admitted',
  payment: 'Payment',
  contactTitle: 'Contact details',
  phone: 'Phone',
  email: 'E-mail',
  save: 'Save',
  saved: 'Saved',
  noticesTitle: 'Notices',
  noticesEmail: 'Notices by e-mail (renewal, debts, low balance)',
  noticesSms: 'Notices by SMS',
  noticesNote: 'Your sign-in code is always sent, even with notices off.',
  checkoutTitle: 'Payment',
  checkoutPending: 'Waiting for the clearing company…',
  checkoutPaid: 'Payment received. Thank you!',
  checkoutFailed: 'The payment did not go through ({reason}).',
  downloadDocument: 'Download the invoice',
  back: 'Back',
  loading: 'Loading…',
  required: 'Required',
  invalidCode: 'Type the 6 digits',
  genericError: 'Something went wrong. Try again.',
  networkError: 'No connection to the server. Check the connection and try again.',
  errors: {
    VALIDATION_ERROR: 'Check what you typed',
    MEMBER_CODE_WRONG: 'The code is wrong or has expired. You can ask for a new one',
    MEMBER_CODE_LIMIT: 'Too many codes were sent. Try again in {seconds} seconds',
    LOGIN_LOCKED: 'Too many wrong tries. Try again in {seconds} seconds',
    TOO_MANY_REQUESTS: 'Too many requests. Wait a little',
    NOT_FOUND: 'Not found',
    NOTHING_TO_RENEW: 'There is no subscription to renew',
    CHARGE_AMOUNT_OUT_OF_RANGE: 'The amount is outside what the club allows',
    invalidPhone: 'Invalid phone number',
    invalidEmail: 'Invalid e-mail address',
    invalidAmount: 'Invalid amount',
  },
  weekday: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
};

export const WORDS = { he, en };
export type Lang = keyof typeof WORDS;

const LANG_KEY = 'venue.member.lang';

/** The saved language (Hebrew unless English was chosen). */
export function savedLang(): Lang {
  try {
    return localStorage.getItem(LANG_KEY) === 'en' ? 'en' : 'he';
  } catch {
    return 'he';
  }
}

/** Saves the language and sets the page's lang and direction. */
export function applyLang(lang: Lang): void {
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === 'he' ? 'rtl' : 'ltr';
  document.title = WORDS[lang].appTitle;
}

type Plain = { [K in keyof Words]: Words[K] extends string ? K : never }[keyof Words];

/** The words of a language as a translate function: `t('renew', {amount})`. */
export function translator(lang: Lang) {
  const w = WORDS[lang];
  const fill = (s: string, vars?: Record<string, string | number>) =>
    s.replace(/\{(\w+)\}/g, (_, k: string) => String(vars?.[k] ?? ''));
  const t = (key: Plain, vars?: Record<string, string | number>) => fill(w[key], vars);
  /** An error code's or a field message's words, else the generic error. */
  const error = (code: string, vars?: Record<string, string | number>) =>
    fill((w.errors as Record<string, string>)[code] ?? w.genericError, vars);
  return { lang, t, error, weekday: (d: number) => w.weekday[d] };
}

export type T = ReturnType<typeof translator>;

export const LangContext = createContext<{ tr: T; setLang: (l: Lang) => void }>({
  tr: translator('he'),
  setLang: () => undefined,
});

/** The current language's translate functions. */
export function useT(): T {
  return useContext(LangContext).tr;
}

/** Money (agorot) as shekels for the language: ₪45.00. */
export function shekels(agorot: number, lang: Lang): string {
  return new Intl.NumberFormat(lang === 'he' ? 'he-IL' : 'en-IL', { style: 'currency', currency: 'ILS' }).format(
    agorot / 100,
  );
}
