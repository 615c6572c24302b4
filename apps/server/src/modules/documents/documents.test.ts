import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { Api, createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { validPersonalId } from '../../../test/factories.js';
import { SANDBOX_CARDS } from '../../integrations/clearing/sandbox.js';
import { issueDocumentForCollectedPayment } from './documents.service.js';
import { pdfText } from './pdf-text.test-helper.js';

/**
 * Receipts and tax invoices (issue 18; docs/money.md "Documents"): the PDFs
 * are read back with pdf.js, an independent reader.
 */
const card = { number: SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' };
let seq = 0;
const key = () => `doc-${Date.now()}-${++seq}`;
const ISRAEL = {
  country: 'Israel',
  companyNumber: '514123454',
  invoiceEmail: 'invoices@club.example',
  addressStreet: 'הרצל',
  addressHouseNumber: '12',
  addressCity: 'ירושלים',
};

describe('documents of purchases', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  async function setup(settings: object = ISRAEL, name = 'מקווה בית יעקב') {
    const s = await signedInAdmin(ctx, { settings });
    await ctx.database.db.execute(sql`update clubs set name = ${name} where id = ${s.club.id}`);
    const c = (
      await s.api.post('/api/Client', { firstName: 'שרה', lastName: 'Cohen', personalId: validPersonalId(4242) })
    ).json();
    return { ...s, client: c };
  }
  const buy = async (api: Api, clientId: number, payments: object[], unitPrice = 10000, itemType = 2) => {
    const res = await api.post('/api/Client/AdminPurchase', {
      clientId,
      purchaseItems: [{ itemType, quantity: 1, unitPrice }],
      payments,
      idempotencyKey: key(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const pdfOf = async (api: Api, url: string) => {
    const res = await api.get(url);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    return pdfText(res.rawPayload);
  };

  it('a card purchase in Israel: a tax invoice-receipt with every required field, original then copy, last four only', async () => {
    const { api, client } = await setup();
    const p = await buy(api, client.id, [{ method: 1, amount: 10000, card }]);
    expect(p.invoiceNumber).toBeGreaterThan(0);
    const first = await pdfOf(api, `/api/Purchase/DocumentPdf/${p.id}`);
    expect(first.pages).toBe(1);
    const t = first.text;
    expect(t).toContain('מקווה בית יעקב');
    expect(t).toContain('514123454');
    expect(t).toContain('הרצל 12, ירושלים');
    expect(t).toContain(`חשבונית מס קבלה מס׳ ${p.invoiceNumber}`);
    expect(t).toContain('שרה Cohen');
    expect(t).toContain(validPersonalId(4242));
    // Lines and totals: 100.00 with 18% VAT = 84.75 + 15.25.
    expect(first.items).toContain('84.75');
    expect(first.items).toContain('15.25');
    expect(t).toContain('מע״מ 18%');
    expect(first.items).toContain('100.00 ₪');
    expect(t).toContain('****4242');
    expect(t.replace(/\s/g, '')).not.toContain(SANDBOX_CARDS.approve.replace(/\s/g, ''));
    expect(first.items).toContain('מקור');
    expect(first.items).not.toContain('העתק');
    // The date and time in the club's time zone (Jerusalem).
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Jerusalem',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    }).format(new Date(p.at));
    expect(t).toContain(local);

    const second = await pdfOf(api, `/api/Purchase/DocumentPdf/${p.id}`);
    expect(second.items).toContain('העתק');
    expect(second.items).not.toContain('מקור');
    expect(second.text).toContain(`חשבונית מס קבלה מס׳ ${p.invoiceNumber}`);
    const docs = (await api.get(`/api/Purchase/Documents/${p.id}`)).json();
    expect(docs).toMatchObject([{ kind: 320, number: p.invoiceNumber, prints: 2 }]);
  });

  it('a refund gives the money back and issues a numbered tax credit invoice that names the invoice', async () => {
    const { api, client } = await setup();
    const p = await buy(api, client.id, [{ method: 0, amount: 5000 }], 5000);
    expect((await api.get(`/api/getBalance/${client.id}`)).json().balance).toBe(5000);
    const refundKey = key();
    const r = await api.post(`/api/Purchase/Refund/${p.id}`, { reason: 'ביטול עסקה', idempotencyKey: refundKey });
    expect(r.statusCode, r.body).toBe(200);
    const { purchase, document } = r.json();
    expect(purchase.paymentStatus).toBe(3);
    expect(document).toMatchObject({ kind: 330, number: 1, purchaseId: p.id });
    expect((await api.get(`/api/getBalance/${client.id}`)).json().balance).toBe(0);
    // The same request again answers the first refund; a new one finds nothing left.
    const again = await api.post(`/api/Purchase/Refund/${p.id}`, { idempotencyKey: refundKey });
    expect(again.json().document.id).toBe(document.id);
    const another = await api.post(`/api/Purchase/Refund/${p.id}`, { idempotencyKey: key() });
    expect(another.statusCode).toBe(409);
    expect(another.json()).toMatchObject({ code: 'REFUND_NOT_POSSIBLE', details: { reason: 'refunded' } });
    const credit = await pdfOf(api, `/api/Document/Pdf/${document.id}`);
    expect(credit.text).toContain('חשבונית מס זיכוי מס׳ 1');
    expect(credit.text).toContain(`זיכוי עבור חשבונית מס קבלה מס׳ ${p.invoiceNumber}`);
    expect(credit.text).toContain('ביטול עסקה');
    expect(credit.items).toContain('50.00 ₪');
    expect(credit.items).toContain('מקור');
    // The next refund of the club takes the next credit number.
    const p2 = await buy(api, client.id, [{ method: 1, amount: 2000, card }], 2000);
    const r2 = await api.post(`/api/Purchase/Refund/${p2.id}`, { idempotencyKey: key() });
    expect(r2.json().document.number).toBe(2);
    const charge = await ctx.database.db.execute(sql`select status from charges where purchase_id = ${p2.id}`);
    expect((charge as unknown as { rows: { status: string }[] }).rows[0].status).toBe('refunded');
  });

  it('a refund of money already spent is refused and changes nothing', async () => {
    const { api, client } = await setup();
    const p = await buy(api, client.id, [{ method: 0, amount: 3000 }], 3000);
    await buy(api, client.id, [{ method: 7, amount: 3000 }], 3000, 4);
    const r = await api.post(`/api/Purchase/Refund/${p.id}`, { idempotencyKey: key() });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ code: 'REFUND_NOT_POSSIBLE', details: { reason: 'spent' } });
    expect((await api.get(`/api/Purchase/${p.id}`)).json().paymentStatus).toBe(1);
    expect((await api.get(`/api/Purchase/Documents/${p.id}`)).json()).toEqual([]);
  });

  it("a cash-rounded sale: its credit documents mirror the sale document's rounding, so they net to zero", async () => {
    const { api, client } = await setup();
    type Snap = {
      lines: { description: string; quantity: number; total: number; vat: number; beforeVat: number }[];
      totals: { beforeVat: number; vat: number; total: number; rounding: number };
      payments: { method: number; amount: number }[];
    };
    const snapOf = async (id: number) => {
      const r = await ctx.database.db.execute(sql`select snapshot from purchase_documents where id = ${id}`);
      return (r as unknown as { rows: { snapshot: Snap }[] }).rows[0].snapshot;
    };
    const sum = (xs: { amount?: number; total?: number }[]) => xs.reduce((s, x) => s + (x.amount ?? x.total ?? 0), 0);
    // 19.95 in cash is paid 20.00 (+0.05); 19.94 is paid 19.90 (−0.04) (DOMAIN-FACTS: only cash is rounded).
    for (const [price, paid, rounding] of [
      [1995, 2000, 5],
      [1994, 1990, -4],
    ]) {
      const p = await buy(api, client.id, [{ method: 0, amount: paid }], price, 3);
      await pdfOf(api, `/api/Purchase/DocumentPdf/${p.id}`);
      const sale = await snapOf((await api.get(`/api/Purchase/Documents/${p.id}`)).json()[0].id);
      expect(sale.totals.rounding).toBe(rounding);
      expect(sum(sale.lines) + sale.totals.rounding).toBe(sum(sale.payments));
      // The whole sale refunded in one: the credit's lines are the sale's lines and its rounding the sale's.
      const r = await api.post(`/api/Purchase/Refund/${p.id}`, { idempotencyKey: key() });
      expect(r.statusCode, r.body).toBe(200);
      const credit = await snapOf(r.json().document.id);
      expect(credit.lines).toEqual(sale.lines);
      expect(credit.totals.rounding).toBe(sale.totals.rounding);
      expect(credit.payments).toEqual(sale.payments.map((x) => ({ ...x, lastFour: '' })));
      expect(sum(credit.lines) + credit.totals.rounding).toBe(sum(credit.payments));
      const pdf = await pdfOf(api, `/api/Document/Pdf/${r.json().document.id}`);
      expect(pdf.text).toContain('עיגול');
    }
    // Refunded in two parts: the part that completes the purchase carries the rounding; together they net the sale.
    const p = await buy(api, client.id, [{ method: 0, amount: 2000 }], 1995, 3);
    await pdfOf(api, `/api/Purchase/DocumentPdf/${p.id}`);
    const sale = await snapOf((await api.get(`/api/Purchase/Documents/${p.id}`)).json()[0].id);
    const first = await api.post(`/api/Purchase/Refund/${p.id}`, { amount: 1000, idempotencyKey: key() });
    const second = await api.post(`/api/Purchase/Refund/${p.id}`, { idempotencyKey: key() });
    expect(second.json().purchase.paymentStatus).toBe(3);
    const credits = [await snapOf(first.json().document.id), await snapOf(second.json().document.id)];
    expect(credits.map((c) => c.totals.rounding)).toEqual([0, 5]);
    for (const c of credits) expect(sum(c.lines) + c.totals.rounding).toBe(sum(c.payments));
    expect(credits.reduce((s, c) => s + sum(c.lines) + c.totals.rounding, 0)).toBe(
      sum(sale.lines) + sale.totals.rounding,
    );
    expect(credits.reduce((s, c) => s + c.totals.vat, 0)).toBe(sale.totals.vat);
  });

  it('nothing paid (Free): no invoice number, no tax document, no credit; the series goes on without a gap', async () => {
    const { api, client } = await setup();
    const before = await buy(api, client.id, [{ method: 0, amount: 1000 }], 1000);
    const zero = await buy(
      api,
      client.id,
      [{ method: 6, amount: 0 }],
      0,
      3, // a towel given at ₪0
    );
    const gift = await buy(api, client.id, [{ method: 6, amount: 1500 }], 1500, 3);
    for (const p of [zero, gift]) {
      expect(p.invoiceNumber).toBeNull();
      expect(p.paymentStatus).toBe(1);
      const pdf = await api.get(`/api/Purchase/DocumentPdf/${p.id}`);
      expect(pdf.statusCode).toBe(409);
      expect(pdf.json().code).toBe('DOCUMENT_NOT_REQUIRED');
      expect((await api.get(`/api/Purchase/Documents/${p.id}`)).json()).toEqual([]);
      const refund = await api.post(`/api/Purchase/Refund/${p.id}`, { idempotencyKey: key() });
      expect(refund.json()).toMatchObject({ code: 'REFUND_NOT_POSSIBLE', details: { reason: 'nothingPaid' } });
    }
    const after = await buy(api, client.id, [{ method: 0, amount: 1000 }], 1000);
    expect(after.invoiceNumber).toBe(before.invoiceNumber + 1);
  });

  it('MASAV: no receipt number until the payment is collected; then the next number and its document', async () => {
    const { api, client, club } = await setup();
    const pm = await api.post('/api/CreditCard', {
      kind: 'masav',
      clientId: client.id,
      bankCode: '12',
      branch: '571',
      account: '041116',
      ownerId: validPersonalId(77),
      ownerName: 'שרה כהן',
      chargeLimit: 0,
    });
    expect(pm.statusCode, pm.body).toBe(200);
    const before = await buy(api, client.id, [{ method: 0, amount: 1000 }], 1000);
    const masav = await buy(api, client.id, [{ method: 5, amount: 2500 }], 2500);
    expect(masav.invoiceNumber).toBeNull();
    expect(masav.paymentStatus).toBe(2);
    const pdf = await api.get(`/api/Purchase/DocumentPdf/${masav.id}`);
    expect(pdf.statusCode).toBe(409);
    expect(pdf.json().code).toBe('DOCUMENT_NOT_ISSUED');
    // No gap: the next purchase takes the number after the last one.
    const after = await buy(api, client.id, [{ method: 0, amount: 1000 }], 1000);
    expect(after.invoiceNumber).toBe(before.invoiceNumber + 1);
    // A refund of an uncollected MASAV purchase is refused.
    const refund = await api.post(`/api/Purchase/Refund/${masav.id}`, { idempotencyKey: key() });
    expect(refund.json()).toMatchObject({ code: 'REFUND_NOT_POSSIBLE', details: { reason: 'pending' } });

    // The bank reports the debit collected (the MASAV return file's reader calls this).
    const debts = (await api.get(`/api/Debts/GetByClientId/${client.id}`)).json();
    const debt = debts.find((d: { amount: number }) => d.amount === 2500);
    const db = ctx.database.db;
    const doc = await db.transaction((tx) =>
      issueDocumentForCollectedPayment(tx, { clubId: club.id, debtId: debt.id, collectedAt: new Date() }),
    );
    expect(doc).toMatchObject({ kind: 320, number: after.invoiceNumber + 1 });
    const again = await db.transaction((tx) =>
      issueDocumentForCollectedPayment(tx, { clubId: club.id, purchaseId: masav.id }),
    );
    expect(again.id).toBe(doc.id);
    const paid = (await api.get(`/api/Purchase/${masav.id}`)).json();
    expect(paid).toMatchObject({ invoiceNumber: after.invoiceNumber + 1, paymentStatus: 1 });
    const text = await pdfOf(api, `/api/Purchase/DocumentPdf/${masav.id}`);
    expect(text.text).toContain(`חשבונית מס קבלה מס׳ ${after.invoiceNumber + 1}`);
    expect(text.text).toContain('הוראת קבע (מס״ב)');
  });

  it('a club outside Israel gets an English receipt; another club’s purchase is not found', async () => {
    const { api, client } = await setup(
      { country: 'UK', companyNumber: 'GB-0123', addressCity: 'London', addressStreet: 'High Street' },
      'London Pool Club',
    );
    const p = await buy(api, client.id, [{ method: 1, amount: 10000, card }]);
    const r = await pdfOf(api, `/api/Purchase/DocumentPdf/${p.id}`);
    expect(r.text).toContain('London Pool Club');
    expect(r.text).toContain('Company no. GB-0123');
    expect(r.text).toContain(`Receipt No. ${p.invoiceNumber}`);
    expect(r.text).toContain('Tax 20%');
    expect(r.items).toContain('Original');
    expect((await pdfOf(api, `/api/Purchase/DocumentPdf/${p.id}`)).items).toContain('Copy');
    const other = await setup();
    expect((await other.api.get(`/api/Purchase/DocumentPdf/${p.id}`)).statusCode).toBe(404);
    expect((await other.api.get(`/api/Purchase/Documents/${p.id}`)).statusCode).toBe(404);
  });

  it('e-mails a document (a copy) to the invoice e-mail through the club’s SMTP server', async () => {
    const received: { from: string; to: string; raw: Buffer; user?: string; pass?: string }[] = [];
    const server = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _s, cb) {
        if (auth.username === 'mailer' && auth.password === 's3cret') cb(null, { user: auth.username });
        else cb(new Error('bad login'));
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address).join(','),
            raw: Buffer.concat(chunks),
          });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as { port: number }).port;
    try {
      const { api, client } = await setup();
      const p = await buy(api, client.id, [{ method: 0, amount: 1000 }], 1000);
      const docs = await api.get(`/api/Purchase/DocumentPdf/${p.id}`);
      expect(docs.statusCode).toBe(200);
      const [doc] = (await api.get(`/api/Purchase/Documents/${p.id}`)).json();
      expect((await api.post(`/api/Document/Email/${doc.id}`)).json().code).toBe('MAIL_NOT_CONFIGURED');
      const saved = await api.request('PUT', '/api/Club/InvoiceMailSettings', {
        host: '127.0.0.1',
        port,
        secure: false,
        user: 'mailer',
        password: 's3cret',
        from: 'club@club.example',
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toMatchObject({ host: '127.0.0.1', passwordSet: true });
      expect(saved.body).not.toContain('s3cret');
      const sent = await api.post(`/api/Document/Email/${doc.id}`);
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json().to).toBe('invoices@club.example');
      expect(received).toHaveLength(1);
      expect(received[0].to).toBe('invoices@club.example');
      const mail = await simpleParser(received[0].raw);
      const att = mail.attachments.find((a) => a.contentType === 'application/pdf')!;
      expect(att.filename).toBe(`320-${p.invoiceNumber}.pdf`);
      const text = await pdfText(att.content);
      expect(text.text).toContain(`חשבונית מס קבלה מס׳ ${p.invoiceNumber}`);
      expect(text.items).toContain('העתק');
      // The e-mail was not a print: the customer's next print is still counted from 1.
      expect((await api.get(`/api/Purchase/Documents/${p.id}`)).json()[0]).toMatchObject({ prints: 1 });
      // A wrong password: the server's refusal is a clear error, not a 500.
      await api.request('PUT', '/api/Club/InvoiceMailSettings', {
        host: '127.0.0.1',
        port,
        user: 'mailer',
        password: 'nope',
      });
      const refused = await api.post(`/api/Document/Email/${doc.id}`);
      expect(refused.statusCode).toBe(502);
      expect(refused.json().code).toBe('MAIL_SEND_FAILED');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
