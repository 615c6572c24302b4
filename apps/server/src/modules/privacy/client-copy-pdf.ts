import type { ClientCopy } from '@venue/domain';
import { FONT, FONT_BOLD, PAGE, line } from '../documents/document-pdf.js';

/** Titles of the copy's sections, Hebrew and English, by table (a table without one shows its name). */
export const COPY_TITLES: Record<string, [string, string]> = {
  clients: ['פרטים אישיים (וילדים הרשומים תחתיה)', 'Personal details (and children registered under her)'],
  balance_ledger: ['תנועות יתרה', 'Balance changes'],
  client_entry_guard: ['כניסה אחרונה (מניעת כניסה כפולה)', 'Last entrance (re-entry guard)'],
  entrance_logs: ['כניסות', 'Entrances'],
  audit_log: ['יומן שינויים', 'Change journal'],
  biometric_templates: ['זיהוי ביומטרי (מוצפן, לא מוצג)', 'Biometric data (encrypted, not shown)'],
  quick_exits: ['יציאות מהירות', 'Quick exits'],
  purchases: ['רכישות', 'Purchases'],
  purchase_items: ['פריטי רכישות', 'Purchase lines'],
  purchase_payments: ['תשלומים', 'Payments'],
  charges: ['חיובי אשראי', 'Card charges'],
  payment_methods: ['אמצעי תשלום', 'Payment methods'],
  debts: ['חובות', 'Debts'],
  auto_renew_logs: ['חידושים אוטומטיים', 'Automatic renewals'],
  cash_sessions: ['תשלומים במזומן בעמדה', 'Cash payments at terminals'],
  attendance_logs: ['נוכחות (עובדת)', 'Attendance (employee)'],
  masav_results: ['חיובי מס"ב', 'MASAV debits'],
  purchase_documents: ['מסמכי מס', 'Tax documents'],
  purchase_refunds: ['זיכויים', 'Refunds'],
  data_access_log: ['מי צפה ברשומה', 'Who opened her record'],
};

const WORDS = {
  he: {
    title: 'עותק של המידע האישי',
    client: 'לקוחה מספר',
    generated: 'הופק בתאריך',
    none: 'אין רשומות',
    rows: 'רשומות',
    page: 'עמוד',
  },
  en: {
    title: 'Copy of personal data',
    client: 'Client number',
    generated: 'Generated at',
    none: 'No rows',
    rows: 'rows',
    page: 'Page',
  },
} as const;

/** A value as one printed line (JSON for objects), at most 110 characters. */
function text(v: unknown): string {
  const s = v == null ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return s.length > 110 ? `${s.slice(0, 107)}...` : s;
}

/**
 * The client's copy as a readable A4 PDF (docs/privacy.md "A client's copy"): a title with her
 * number and the time, then each table's rows as "column: value" lines under the table's title,
 * in Hebrew (right to left) or English; every row of the JSON copy is printed (long values cut at
 * 110 characters: the JSON copy holds them whole). pdfkit with DejaVu Sans, as the tax documents.
 */
export async function renderClientCopyPdf(copy: ClientCopy, clientNumber: number, lang: 'he' | 'en'): Promise<Buffer> {
  const W = WORDS[lang];
  const rtl = lang === 'he';
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: PAGE.margin, lang: rtl ? 'he-IL' : 'en', autoFirstPage: true });
  doc.registerFont('regular', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  const left = PAGE.margin;
  const right = PAGE.width - PAGE.margin;
  const x = rtl ? right : left;
  const align = rtl ? 'right' : 'left';
  let y = PAGE.margin;
  const next = (h: number) => {
    y += h;
    if (y > PAGE.height - PAGE.margin - 20) {
      doc.addPage();
      y = PAGE.margin;
    }
  };
  line(doc, W.title, x, y, { rtl, size: 16, bold: true, align });
  next(24);
  line(doc, `${W.client} ${clientNumber}`, x, y, { rtl, size: 11, align });
  next(16);
  line(doc, `${W.generated} ${copy.generatedAt}`, x, y, { rtl, size: 9, align });
  next(22);
  for (const [table, rows] of Object.entries(copy.tables)) {
    const title = COPY_TITLES[table]?.[rtl ? 0 : 1] ?? table;
    line(doc, `${title} (${table}) — ${rows.length} ${W.rows}`, x, y, { rtl, size: 12, bold: true, align });
    next(18);
    if (rows.length === 0) {
      line(doc, W.none, x, y, { rtl, size: 9, align });
      next(16);
      continue;
    }
    for (const row of rows) {
      for (const [k, v] of Object.entries(row)) {
        line(doc, `${k}: ${text(v)}`, x, y, { rtl, size: 8, align });
        next(11);
      }
      next(6);
    }
    next(8);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
