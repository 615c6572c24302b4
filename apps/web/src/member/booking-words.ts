import type { Lang } from './i18n';

/**
 * The booking screen's words (issue 38; docs/members.md "Booking"), Hebrew and English, apart from
 * i18n.ts so that they load with the lazy screen only, never with the sign-in page.
 */
const he = {
  tab: 'תורים',
  bookTitle: 'קביעת תור',
  date: 'תאריך',
  roomKind: 'סוג חדר',
  time: 'שעה',
  prepBath: 'חדר הכנה עם אמבטיה',
  prepShower: 'חדר הכנה עם מקלחת',
  pool: 'טבילה',
  minutes: '{n} דקות',
  included: 'כלול במנוי',
  fee: 'תשלום {amount} מהיתרה',
  noRooms: 'אין חדרים שאפשר להזמין בקבוצה שלך.',
  noSlots: 'אין שעות פנויות ביום הזה.',
  waitlist: 'הצטרפות לרשימת ההמתנה',
  waitlisted: 'נרשמת לרשימת ההמתנה. נודיע לך אם יתפנה תור.',
  confirmTitle: 'אישור התור',
  confirm: 'קביעת התור',
  booked: 'התור נקבע.',
  myBookings: 'התורים שלי',
  noBookings: 'אין לך תורים קרובים.',
  waiting: 'ברשימת ההמתנה: {kind}, {date}',
  cancel: 'ביטול התור',
  cancelAsk: 'לבטל את התור?',
  cancelYes: 'כן, לבטל',
  cancelNo: 'לא',
  cancelUntil: 'אפשר לבטל עד {when}',
  cancelClosed: 'כבר אי אפשר לבטל (פחות מ-{n} דקות לפני התור)',
  cancelled: 'התור בוטל.',
  refunded: 'התור בוטל, {amount} הוחזרו ליתרה.',
  offered: 'התפנה תור בשבילך! שמור עד {when}',
  accept: 'אני לוקחת את התור',
  gateCode: 'קוד חד-פעמי לכניסה',
  gateCodeShow: 'הצגת קוד כניסה',
  gateCodeValid: 'להקליד בעמדת הכניסה בין {from} ל-{until}. הקוד פועל פעם אחת.',
  status: {
    offered: 'הוצע לך',
    booked: 'נקבע',
    checkedIn: 'הגעת',
    preparing: 'בהכנה',
    immersed: 'טבלת',
    done: 'הסתיים',
    noShow: 'לא הגעת',
    cancelled: 'בוטל',
  },
  errors: {
    SLOT_TAKEN: 'מישהי אחרת הזמינה את השעה הזאת ממש עכשיו. אפשר לבחור שעה אחרת',
    SLOT_NOT_BOOKABLE: 'אי אפשר להזמין את השעה הזאת',
    BOOKING_NOT_ALLOWED: 'הקבוצה שלך לא יכולה להזמין את החדר הזה',
    BOOKING_CLOSED: 'אי אפשר לשנות את התור הזה עכשיו',
    NOT_ENOUGH_BALANCE: 'אין מספיק יתרה לתשלום. אפשר לטעון יתרה בלשונית התשלומים',
    invalidDate: 'תאריך לא תקין',
  } as Record<string, string>,
};

export type BookingWords = typeof he;

const en: BookingWords = {
  tab: 'Book',
  bookTitle: 'Book an appointment',
  date: 'Date',
  roomKind: 'Room',
  time: 'Time',
  prepBath: 'Preparation room with a bath',
  prepShower: 'Preparation room with a shower',
  pool: 'Immersion',
  minutes: '{n} minutes',
  included: 'Included in your subscription',
  fee: '{amount} from your balance',
  noRooms: 'There are no rooms your group may book.',
  noSlots: 'No free times on this day.',
  waitlist: 'Join the waitlist',
  waitlisted: 'You are on the waitlist. We will tell you when a time frees up.',
  confirmTitle: 'Confirm the booking',
  confirm: 'Book it',
  booked: 'Booked.',
  myBookings: 'My bookings',
  noBookings: 'You have no upcoming bookings.',
  waiting: 'On the waitlist: {kind}, {date}',
  cancel: 'Cancel booking',
  cancelAsk: 'Cancel this booking?',
  cancelYes: 'Yes, cancel',
  cancelNo: 'No',
  cancelUntil: 'You may cancel until {when}',
  cancelClosed: 'It can no longer be cancelled (less than {n} minutes before)',
  cancelled: 'The booking is cancelled.',
  refunded: 'The booking is cancelled; {amount} went back to your balance.',
  offered: 'A time freed up for you! Held until {when}',
  accept: 'Take this time',
  gateCode: 'One-time entry code',
  gateCodeShow: 'Show entry code',
  gateCodeValid: 'Type it at the entrance between {from} and {until}. It works once.',
  status: {
    offered: 'Offered to you',
    booked: 'Booked',
    checkedIn: 'Arrived',
    preparing: 'Preparing',
    immersed: 'Immersed',
    done: 'Done',
    noShow: 'Missed',
    cancelled: 'Cancelled',
  },
  errors: {
    SLOT_TAKEN: 'Someone else just booked this time. Choose another time',
    SLOT_NOT_BOOKABLE: 'This time cannot be booked',
    BOOKING_NOT_ALLOWED: 'Your group may not book this room',
    BOOKING_CLOSED: 'This booking cannot be changed now',
    NOT_ENOUGH_BALANCE: 'Not enough balance to pay. You can load your balance on the Money tab',
    invalidDate: 'Invalid date',
  },
};

/** The booking words of a language. */
export const bookingWords = (lang: Lang): BookingWords => (lang === 'he' ? he : en);

/** Fills `{name}` placeholders. */
export const fill = (s: string, vars: Record<string, string | number> = {}): string =>
  s.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
