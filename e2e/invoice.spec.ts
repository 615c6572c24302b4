import { writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiSession } from './api';
import { ClientMoneyPage } from './pages/ClientMoneyPage';
import { confirmTermsIfAsked } from './pages/LoginPage';

/**
 * Issue 18 "Receipts and tax invoices": a card purchase; its tax
 * invoice-receipt opened from the client's purchases (a PDF, read back with
 * pdf.js: club, company number, number, total, original, last four only);
 * opened again it is a copy; a refund from the same row and its credit
 * document. The PDFs go to E2E_SHOTS when set (render with pdftoppm to look).
 */
async function pdfText(pdf: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  const page = await doc.getPage(1);
  const tc = await page.getTextContent();
  const text = tc.items.map((i) => ('str' in i ? i.str : '')).join('\n');
  await doc.destroy();
  return text;
}

/**
 * Clicks a document button and answers the text of the PDF the console fetched and opened in a
 * new tab (the answer is taken on its way to the page).
 */
async function openDocument(page: Page, testId: string, name: string): Promise<string> {
  let body: Buffer | null = null;
  const pattern = /\/api\/(Purchase\/DocumentPdf|Document\/Pdf)\//;
  await page.route(pattern, async (route) => {
    const res = await route.fetch();
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/pdf');
    body = await res.body();
    await route.fulfill({ response: res, body });
  });
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId(testId).click()]);
  await expect.poll(() => popup.url()).toMatch(/^blob:/);
  await popup.close();
  await page.unroute(pattern);
  expect(body).not.toBeNull();
  if (process.env.E2E_SHOTS) writeFileSync(`${process.env.E2E_SHOTS}/${name}.pdf`, body!);
  return pdfText(body!);
}

test('a purchase, its invoice PDF from the client page, a refund and its credit document', async ({
  page,
  request,
}) => {
  const api = await apiSession(request, 'admin', 'demo1234', 1001);
  const club = await api.get<{ id: number; name: string }>('/api/Club/GetCurrent');
  await api.patch(`/api/Club/${club.id}`, { companyNumber: '514123456' });
  const client = await api.post<{ id: number }>('/api/Client', { firstName: 'מרים', lastName: 'חשבונית' });
  const purchase = await api.post<{ id: number; invoiceNumber: number }>('/api/Client/AdminPurchase', {
    clientId: client.id,
    purchaseItems: [{ itemType: 4, quantity: 2, unitPrice: 2500 }],
    payments: [{ method: 1, amount: 5000, card: { number: '4242 4242 4242 4242', expiry: '12/35', cvv: '123' } }],
    idempotencyKey: `e2e-invoice-${Date.now()}`,
  });

  await page.addInitScript(() => localStorage.setItem('venue.lang', 'he'));
  await page.goto('/login?userName=admin&password=demo1234&externalClubId=1001');
  await page.getByTestId('side-nav').waitFor();
  await confirmTermsIfAsked(page);
  const money = new ClientMoneyPage(page);
  await money.open(client.id);
  await money.tab('רכישות');

  const first = await openDocument(page, `document-${purchase.id}`, 'invoice-original');
  expect(first).toContain(club.name);
  expect(first).toContain('514123456');
  expect(first).toContain(`חשבונית מס קבלה מס׳ ${purchase.invoiceNumber}`);
  expect(first).toContain('50.00 ₪');
  expect(first).toContain('****4242');
  expect(first).not.toContain('4242424242424242');
  expect(first).toContain('מקור');
  const again = await openDocument(page, `document-${purchase.id}`, 'invoice-copy');
  expect(again).toContain('העתק');

  await page.getByTestId(`refund-${purchase.id}`).click();
  await page.getByTestId('refund-reason').fill('ביטול עסקה');
  await page.getByTestId('refund-confirm').click();
  await expect(page.getByText('העסקה זוכתה והופקה חשבונית זיכוי')).toBeVisible();
  const credit = await openDocument(page, `credit-document-${purchase.id}`, 'credit-original');
  expect(credit).toContain('חשבונית מס זיכוי');
  expect(credit).toContain(`זיכוי עבור חשבונית מס קבלה מס׳ ${purchase.invoiceNumber}`);
  expect(credit).toContain('ביטול עסקה');
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/client-purchases-he.png` });
});
