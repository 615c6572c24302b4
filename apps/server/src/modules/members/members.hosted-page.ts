import type { HostedPaymentRequest } from '../../integrations/clearing/hosted.js';

/*
 * The sandbox provider's hosted payment page as the member sees it (docs/members.md
 * "Paying"): a page of the provider, not of the app — the card is typed here and
 * posted to the provider (this server's /sandbox/hosted/…), never to the member app.
 */

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const TEXT = {
  he: {
    title: 'תשלום מאובטח (סביבת ניסוי)',
    amount: 'סכום לתשלום',
    number: 'מספר כרטיס',
    expiry: 'תוקף (MM/YY)',
    cvv: 'CVV',
    pay: 'תשלום',
    cancel: 'ביטול',
    note: 'סביבת ניסוי של ספק הסליקה. כרטיס לדוגמה: 4242 4242 4242 4242',
    bad: 'הקישור לדף התשלום אינו תקין.',
  },
  en: {
    title: 'Secure payment (sandbox)',
    amount: 'Amount to pay',
    number: 'Card number',
    expiry: 'Expiry (MM/YY)',
    cvv: 'CVV',
    pay: 'Pay',
    cancel: 'Cancel',
    note: "The clearing provider's sandbox. Test card: 4242 4242 4242 4242",
    bad: 'This payment page link is not valid.',
  },
};

function shell(lang: 'he' | 'en', body: string): string {
  return `<!doctype html><html lang="${lang}" dir="${lang === 'he' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${TEXT[lang].title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:420px;margin:24px auto;padding:0 16px;color:#1f1f1f}
h1{font-size:20px}label{display:block;margin:14px 0 4px;font-weight:600}
input{width:100%;padding:12px;font-size:18px;box-sizing:border-box;border:1px solid #767676;border-radius:8px}
.amount{font-size:28px;font-weight:700;margin:4px 0 12px}
button{width:100%;margin-top:16px;padding:14px;font-size:18px;border-radius:8px;border:0;background:#0b57d0;color:#fff}
button.secondary{background:#fff;color:#0b57d0;border:1px solid #0b57d0}.note{color:#555;font-size:14px}</style></head>
<body><main>${body}</main></body></html>`;
}

/** The page for a signed request: the amount (agorot shown as shekels) and the card form; `error` the last decline. */
export function hostedPageHtml(req: HostedPaymentRequest, error?: string): string {
  const t = TEXT[req.language];
  const amount = (req.amount / 100).toFixed(2);
  return shell(
    req.language,
    `<h1>${t.title}</h1><p>${esc(req.description)}</p><p>${t.amount}</p><p class="amount" data-testid="hosted-amount">₪${amount}</p>
${error ? `<p role="alert">${esc(error)}</p>` : ''}
<form method="post"><label for="n">${t.number}</label><input id="n" name="number" inputmode="numeric" autocomplete="cc-number" required>
<label for="e">${t.expiry}</label><input id="e" name="expiry" autocomplete="cc-exp" required>
<label for="c">${t.cvv}</label><input id="c" name="cvv" inputmode="numeric" autocomplete="cc-csc" required>
<button type="submit" data-testid="hosted-pay">${t.pay} ₪${amount}</button></form>
<form method="post"><input type="hidden" name="cancel" value="1"><button type="submit" class="secondary">${t.cancel}</button></form>
<p class="note">${t.note}</p>`,
  );
}

/** The page for an address whose signature does not hold. */
export function hostedPageInvalid(): string {
  return shell('en', `<h1>${TEXT.en.title}</h1><p>${TEXT.en.bad}</p>`);
}
