import { DocumentKind, PaymentMethod, PAYMENT_METHOD_BEATS, PurchaseItemType } from '@venue/domain';

/**
 * The printed words of documents in Hebrew and English (the PDF is made on
 * the server, so its words live here and not in the console's catalogues).
 * Hebrew titles are the names of the Income Tax bookkeeping instructions
 * (הוראות ניהול פנקסי חשבונות): חשבונית מס קבלה, חשבונית מס זיכוי.
 */
export const DOC_TEXT = {
  he: {
    title: {
      [DocumentKind.InvoiceReceipt]: 'חשבונית מס קבלה',
      [DocumentKind.CreditInvoice]: 'חשבונית מס זיכוי',
      [DocumentKind.Receipt]: 'קבלה',
      [DocumentKind.RefundReceipt]: 'קבלת החזר',
    },
    number: 'מס׳',
    original: 'מקור',
    copy: 'העתק',
    copyNote: 'העתק נאמן למקור',
    companyNumber: 'ע.מ./ח.פ.',
    email: 'דוא״ל',
    date: 'תאריך',
    customer: 'לקוח',
    personalId: 'ת.ז.',
    clientNumber: 'מס׳ לקוח',
    description: 'תיאור',
    quantity: 'כמות',
    unitPrice: 'מחיר ליחידה',
    beforeVat: 'לפני מע״מ',
    vat: 'מע״מ',
    total: 'סה״כ',
    totalBeforeVat: 'סה״כ לפני מע״מ',
    vatRate: (rate: string) => `מע״מ ${rate}%`,
    totalToPay: 'סה״כ כולל מע״מ',
    totalCredit: 'סה״כ זיכוי כולל מע״מ',
    rounding: 'עיגול',
    payments: 'אמצעי תשלום',
    refunds: 'החזר באמצעות',
    amount: 'סכום',
    refersTo: (title: string, n: number) => `זיכוי עבור ${title} מס׳ ${n}`,
    reason: 'סיבה',
    computerized: 'מסמך ממוחשב',
  },
  en: {
    title: {
      [DocumentKind.InvoiceReceipt]: 'Tax invoice-receipt',
      [DocumentKind.CreditInvoice]: 'Credit invoice',
      [DocumentKind.Receipt]: 'Receipt',
      [DocumentKind.RefundReceipt]: 'Refund receipt',
    },
    number: 'No.',
    original: 'Original',
    copy: 'Copy',
    copyNote: 'Copy of the original',
    companyNumber: 'Company no.',
    email: 'E-mail',
    date: 'Date',
    customer: 'Customer',
    personalId: 'ID',
    clientNumber: 'Client no.',
    description: 'Description',
    quantity: 'Qty',
    unitPrice: 'Unit price',
    beforeVat: 'Before tax',
    vat: 'Tax',
    total: 'Total',
    totalBeforeVat: 'Total before tax',
    vatRate: (rate: string) => `Tax ${rate}%`,
    totalToPay: 'Total',
    totalCredit: 'Total refunded',
    rounding: 'Rounding',
    payments: 'Paid by',
    refunds: 'Refunded to',
    amount: 'Amount',
    refersTo: (title: string, n: number) => `Refund of ${title} no. ${n}`,
    reason: 'Reason',
    computerized: 'Computer-generated document',
  },
} as const;

const METHOD: Record<'he' | 'en', Record<number, string>> = {
  he: {
    [PaymentMethod.Cash]: 'מזומן',
    [PaymentMethod.CreditCard]: 'כרטיס אשראי',
    [PaymentMethod.CreditCardToken]: 'כרטיס אשראי שמור',
    [PaymentMethod.TempCredit]: 'יתרה זמנית',
    [PaymentMethod.CreditCardEmv]: 'כרטיס אשראי במסוף',
    [PaymentMethod.Masav]: 'הוראת קבע (מס״ב)',
    [PaymentMethod.Free]: 'ללא תשלום',
    [PAYMENT_METHOD_BEATS]: 'יתרה כספית',
  },
  en: {
    [PaymentMethod.Cash]: 'Cash',
    [PaymentMethod.CreditCard]: 'Credit card',
    [PaymentMethod.CreditCardToken]: 'Stored credit card',
    [PaymentMethod.TempCredit]: 'Temporary balance',
    [PaymentMethod.CreditCardEmv]: 'Card at the terminal',
    [PaymentMethod.Masav]: 'Direct debit (MASAV)',
    [PaymentMethod.Free]: 'Free',
    [PAYMENT_METHOD_BEATS]: 'Money balance',
  },
};

/** The printed name of a payment method (seed 000 §3 payment methods, 7 = beats). */
export function methodName(lang: 'he' | 'en', method: number): string {
  return METHOD[lang][method] ?? String(method);
}

const ITEM: Record<'he' | 'en', Record<number, string>> = {
  he: {
    [PurchaseItemType.NewSubscription]: 'מנוי',
    [PurchaseItemType.ChargingMoney]: 'טעינת כסף',
    [PurchaseItemType.Towel]: 'מגבת',
    [PurchaseItemType.Entrance]: 'כניסה',
    [PurchaseItemType.PayDebt]: 'תשלום חוב',
    [PurchaseItemType.License]: 'רישיון',
    [PurchaseItemType.Product]: 'מוצר',
  },
  en: {
    [PurchaseItemType.NewSubscription]: 'Subscription',
    [PurchaseItemType.ChargingMoney]: 'Money load',
    [PurchaseItemType.Towel]: 'Towel',
    [PurchaseItemType.Entrance]: 'Entrance',
    [PurchaseItemType.PayDebt]: 'Debt payment',
    [PurchaseItemType.License]: 'License',
    [PurchaseItemType.Product]: 'Product',
  },
};

/** The printed name of a purchase item type (seed 000 §3 item types). */
export function itemTypeName(lang: 'he' | 'en', itemType: number): string {
  return ITEM[lang][itemType] ?? String(itemType);
}

/** The printed name of a card fee line. */
export function feeName(lang: 'he' | 'en'): string {
  return lang === 'he' ? 'עמלת כרטיס אשראי' : 'Card fee';
}
