import type { Db } from '../../db/index.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { orderByCode, payLicenseOrder } from './licenses.service.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (body: string) => `<!doctype html><html lang="he" dir="rtl"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sandbox payment</title>
<style>body{font-family:system-ui,sans-serif;max-width:420px;margin:40px auto;padding:0 16px}
label{display:block;margin:12px 0 4px}input{width:100%;padding:8px;font-size:16px;box-sizing:border-box}
button{margin-top:16px;padding:10px 16px;font-size:16px}.note{color:#666;font-size:13px}</style></head>
<body>${body}</body></html>`;

/**
 * The sandbox provider's hosted payment page of a license order (docs/money.md):
 * a "paid" notice, or the card form with the order's customer, quantity and
 * amount (agorot shown as shekels). @throws NOT_FOUND for an unknown code.
 */
export async function payPageHtml(db: Db, code: string): Promise<string> {
  const o = await orderByCode(db, code);
  const amount = (o.amount / 100).toFixed(2);
  if (o.status === 'paid') return page(`<h1>התשלום בוצע / Paid</h1><p>${o.quantity} licenses loaded.</p>`);
  return page(`<h1>Sandbox payment</h1><p>${esc(o.customerName)} — ${o.quantity} licenses — ₪${amount}</p>
<form method="post"><label for="n">Card number</label><input id="n" name="number" inputmode="numeric" autocomplete="cc-number" required>
<label for="e">Expiry (MM/YY)</label><input id="e" name="expiry" required><label for="c">CVV</label><input id="c" name="cvv" inputmode="numeric" required>
<button type="submit">Pay ₪${amount}</button></form><p class="note">Test card 4242 4242 4242 4242 (docs/money.md)</p>`);
}

/** Pays a license order with the card posted by the payment page: the page to answer, and whether it was paid (else 402). */
export async function payPageSubmit(
  db: Db,
  provider: ClearingProvider,
  code: string,
  card: Parameters<typeof payLicenseOrder>[3],
): Promise<{ paid: boolean; html: string }> {
  const res = await payLicenseOrder(db, provider, code, card);
  if (res.status === 'paid') {
    return { paid: true, html: page(`<h1>התשלום בוצע / Paid</h1><p>${res.quantity} licenses loaded.</p>`) };
  }
  return { paid: false, html: page(`<h1>Payment error</h1><p>${esc(res.reason ?? '')}</p><a href="">Try again</a>`) };
}
