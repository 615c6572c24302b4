import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contract, MAX_REFERENCE_FILE_BYTES, parts } from '@venue/domain';
import { AppError } from '../../lib/errors.js';
import { route } from '../../lib/contract-route.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import {
  createBuyLink,
  createLicenseRequest,
  licensePrice,
  listLicenseRequests,
  orderByCode,
  payLicenseOrder,
  pendingRequestsCount,
  requestsSummary,
  setRequestStatus,
} from './licenses.service.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (body: string) => `<!doctype html><html lang="he" dir="rtl"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sandbox payment</title>
<style>body{font-family:system-ui,sans-serif;max-width:420px;margin:40px auto;padding:0 16px}
label{display:block;margin:12px 0 4px}input{width:100%;padding:8px;font-size:16px;box-sizing:border-box}
button{margin-top:16px;padding:10px 16px;font-size:16px}.note{color:#666;font-size:13px}</style></head>
<body>${body}</body></html>`;

/**
 * The multipart form of a bank-transfer license request: its text fields and
 * its one reference file (up to MAX_REFERENCE_FILE_BYTES, seed 001 §5).
 * @throws FILE_REQUIRED when the request is not multipart, FILE_TOO_LARGE
 */
async function readReferenceForm(req: FastifyRequest) {
  if (!req.isMultipart()) throw new AppError('FILE_REQUIRED', 'A reference file is required');
  const fields: Record<string, string> = {};
  let file: { name: string; buf: Buffer } | null = null;
  for await (const part of req.parts({ limits: { fileSize: MAX_REFERENCE_FILE_BYTES, files: 1, fields: 20 } })) {
    if (part.type === 'file') {
      const f = part as MultipartFile;
      try {
        file = { name: f.filename, buf: await f.toBuffer() };
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError('FILE_TOO_LARGE', 'File too large (max 3MB)');
        }
        throw err;
      }
    } else {
      fields[part.fieldname] = String((part as { value: unknown }).value);
    }
  }
  return { fields, file };
}

/** Licenses (seed 000 §7 "Licenses"; the entries are `contract.licenses`), and the sandbox provider's payment page for license orders. */
export async function licenseRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;

  const c = contract.licenses;
  route(app, c.price, async (req) => ({ price: await licensePrice(db, req.auth.clubId) }));
  route(app, c.buyLink, async (req) => createBuyLink(db, clearingProvider(), req.auth, req.body));
  route(app, c.request, async (req) => createLicenseRequest(db, req.auth, await readReferenceForm(req)));
  route(app, c.pendingCount, async (req) => pendingRequestsCount(db, req.auth.clubId));
  route(app, c.summary, async (req) => requestsSummary(db, req.auth.clubId));
  route(app, c.setStatus, async (req) => setRequestStatus(db, req.auth, req.params.id, req.body.status));
  route(app, c.list, async (req) => listLicenseRequests(db, req.auth.clubId, req.query.licenseType));

  // The sandbox provider's hosted payment page (outside /api: a provider page, no console session).
  await app.register(async (pageApp) => {
    pageApp.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    const p = pageApp.withTypeProvider<ZodTypeProvider>();
    const Params = z.object({ code: z.string().regex(/^[\w-]{8,40}$/) });
    p.get(
      '/sandbox/pay/:code',
      { config: { public: true }, schema: { hide: true, params: Params } },
      async (req, reply) => {
        const o = await orderByCode(db, req.params.code);
        const amount = (o.amount / 100).toFixed(2);
        reply.type('text/html; charset=utf-8');
        if (o.status === 'paid') return page(`<h1>התשלום בוצע / Paid</h1><p>${o.quantity} licenses loaded.</p>`);
        return page(`<h1>Sandbox payment</h1><p>${esc(o.customerName)} — ${o.quantity} licenses — ₪${amount}</p>
<form method="post"><label for="n">Card number</label><input id="n" name="number" inputmode="numeric" autocomplete="cc-number" required>
<label for="e">Expiry (MM/YY)</label><input id="e" name="expiry" required><label for="c">CVV</label><input id="c" name="cvv" inputmode="numeric" required>
<button type="submit">Pay ₪${amount}</button></form><p class="note">Test card 4242 4242 4242 4242 (docs/money.md)</p>`);
      },
    );
    p.post(
      '/sandbox/pay/:code',
      {
        // The provider's page: posted by its own form, with no console session to forge.
        config: { public: true, antiForgery: false },
        schema: {
          hide: true,
          params: Params,
          body: z.object({ number: parts.text(30), expiry: parts.text(5), cvv: parts.text(4) }),
        },
      },
      async (req, reply) => {
        const res = await payLicenseOrder(db, clearingProvider(), req.params.code, req.body);
        reply.type('text/html; charset=utf-8');
        if (res.status === 'paid') return page(`<h1>התשלום בוצע / Paid</h1><p>${res.quantity} licenses loaded.</p>`);
        return reply
          .status(402)
          .send(page(`<h1>Payment error</h1><p>${esc(res.reason ?? '')}</p><a href="">Try again</a>`));
      },
    );
  });
}
