import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contract, MAX_REFERENCE_FILE_BYTES, parts } from '@venue/domain';
import { AppError } from '../../lib/errors.js';
import { uploadBuffer } from '../../lib/upload.js';
import { route } from '../../lib/contract-route.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import {
  createBuyLink,
  createLicenseRequest,
  licensePrice,
  listLicenseRequests,
  pendingRequestsCount,
  requestsSummary,
  setRequestStatus,
} from './licenses.service.js';
import { payPageHtml, payPageSubmit } from './licenses.sandbox-page.js';

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
      file = { name: f.filename, buf: await uploadBuffer(f, MAX_REFERENCE_FILE_BYTES, 'File too large (max 3MB)') };
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
        const html = await payPageHtml(db, req.params.code);
        reply.type('text/html; charset=utf-8');
        return html;
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
        const res = await payPageSubmit(db, clearingProvider(), req.params.code, req.body);
        reply.type('text/html; charset=utf-8');
        return res.paid ? res.html : reply.status(402).send(res.html);
      },
    );
  });
}
