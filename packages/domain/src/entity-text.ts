/**
 * The words of the entity lists (seed 001 §1 two languages; seed 000 §7 the
 * clients, groups, products and users exports): column headers of the .xlsx
 * exports, the client import's headers and the sheet titles, Hebrew and
 * English. One copy for the server's spreadsheets (modules/<area>/<area>.export.ts,
 * the import's IMPORT_COLUMNS) and for the console, whose catalogue puts them
 * at `<entity>s.<key>` (`clients.firstName`), so a list column and its .xlsx
 * header say the same thing. Codes inside the cells are labelled by labels.ts.
 */
type Pair = readonly [he: string, en: string];

export const ENTITY_TEXT = {
  client: {
    number: ['מס׳', 'No.'],
    firstName: ['שם פרטי', 'First name'],
    lastName: ['שם משפחה', 'Last name'],
    personalId: ['תעודת זהות', 'ID number'],
    phone: ['טלפון', 'Phone'],
    city: ['עיר', 'City'],
    address: ['כתובת', 'Address'],
    group: ['קבוצה', 'Group'],
    clientType: ['סוג לקוח', 'Client type'],
    cardSerial: ['מספר כרטיס', 'Card number'],
    subscriptionStart: ['תחילת מנוי', 'Subscription start'],
    subscriptionEnd: ['סיום מנוי', 'Subscription end'],
    licenseExpiry: ['תוקף רישיון', 'License expiry'],
    balance: ['יתרה', 'Balance'],
    tempBalance: ['יתרה זמנית', 'Temporary balance'],
    specialPrice: ['מחיר מיוחד', 'Special price'],
    status: ['סטטוס', 'Status'],
    clientCode: ['קוד לקוח', 'Client code'],
    messageToClient: ['הודעה ללקוח', 'Message to client'],
    createdAt: ['נוצר', 'Created'],
  },
  group: {
    name: ['שם הקבוצה', 'Group name'],
    clientCount: ['לקוחות', 'Clients'],
    entranceState: ['מצב כניסה', 'Entrance state'],
    allowEntrance: ['כניסה מותרת', 'Allow entrance'],
    allowPayment: ['לאפשר תשלום', 'Allow payment'],
    allowPurchases: ['לאפשר רכישות', 'Allow purchases'],
    bonus: ['בונוס', 'Bonus'],
    minChargeAmount: ['טעינה מינימלית', 'Minimum charge'],
    maxChargeAmount: ['טעינה מרבית', 'Maximum charge'],
    maxEntriesPerDay: ['מקסימום כניסות ביום', 'Max entries per day'],
    priority: ['עדיפות', 'Priority'],
    scheduleRows: ['שורות בלוח הזמנים', 'Schedule rows'],
  },
  product: {
    name: ['שם', 'Name'],
    displayName: ['שם לתצוגה', 'Display name'],
    description: ['תיאור', 'Description'],
    type: ['סוג', 'Type'],
    price: ['מחיר', 'Price'],
    maxQuantity: ['כמות מרבית', 'Max quantity'],
    active: ['פעיל', 'Active'],
  },
  user: {
    username: ['שם משתמש', 'User name'],
    name: ['שם', 'Name'],
    language: ['שפה', 'Language'],
    isAdmin: ['מנהל מערכת', 'Administrator'],
    role: ['תפקיד', 'Role'],
    disabled: ['מושבת', 'Disabled'],
    createdAt: ['נוצר', 'Created'],
  },
  /** Sheet titles of the exports. */
  sheet: {
    clients: ['לקוחות', 'Clients'],
    groups: ['קבוצות', 'Groups'],
    products: ['מוצרים', 'Products'],
    users: ['משתמשים', 'Users'],
  },
} as const satisfies Record<string, Record<string, Pair>>;

export type EntityTextPart = keyof typeof ENTITY_TEXT;
export type EntityTextKey<P extends EntityTextPart> = keyof (typeof ENTITY_TEXT)[P] & string;

/** The word of `ENTITY_TEXT[part][key]` in `lang`. */
export function entityText<P extends EntityTextPart>(part: P, key: EntityTextKey<P>, lang: 'he' | 'en'): string {
  const pair = (ENTITY_TEXT[part] as Record<string, Pair>)[key];
  return pair[lang === 'he' ? 0 : 1];
}

/**
 * The console's entries of one language: `clients.<key>`, `groups.<key>`,
 * `products.<key>`, `users.<key>` (apps/web's catalogue merges them; a key
 * also written in a JSON catalogue is an error there).
 */
export function entityTextEntries(lang: 'he' | 'en'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of ['client', 'group', 'product', 'user'] as const) {
    for (const [key, pair] of Object.entries(ENTITY_TEXT[part] as Record<string, Pair>)) {
      out[`${part}s.${key}`] = pair[lang === 'he' ? 0 : 1];
    }
  }
  return out;
}
