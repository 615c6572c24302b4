import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import {
  listPurchaseDocuments,
  printDocument,
  printPurchaseDocument,
  type PrintedDocument,
} from './documents.service.js';
import {
  emailDocument,
  emailPurchaseDocument,
  getMailSettings,
  saveMailSettings,
  sendTestMail,
} from './mail.service.js';
import { refundableState, refundPurchase } from './refund.service.js';

/** A PDF shown in the browser (inline), with its file name for saving. */
function sendPdf(reply: import('fastify').FastifyReply, d: PrintedDocument) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `inline; filename="${d.filename}"`)
    .header('cache-control', 'no-store')
    .send(d.pdf);
}

/** Receipts and tax invoices (docs/money.md "Documents"); the entries are `contract.documents`. */
export async function documentRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.documents;
  route(app, c.ofPurchase, async (req) => listPurchaseDocuments(db, req.auth.clubId, req.params.id));
  route(app, c.purchasePdf, async (req, reply) =>
    sendPdf(reply, await printPurchaseDocument(db, req.auth.clubId, req.params.id, req.auth.userId)),
  );
  route(app, c.pdf, async (req, reply) => sendPdf(reply, await printDocument(db, req.auth.clubId, req.params.id)));
  route(app, c.refundable, async (req) => refundableState(db, req.auth.clubId, req.params.id));
  route(app, c.refund, async (req) => refundPurchase(db, clearingProvider(), req.auth, req.params.id, req.body));
  route(app, c.email, async (req) => emailDocument(db, req.auth.clubId, req.params.id));
  route(app, c.emailPurchase, async (req) => emailPurchaseDocument(db, req.auth, req.params.id));
  route(app, c.mailSettings, async (req) => getMailSettings(db, req.auth.clubId));
  route(app, c.saveMailSettings, async (req) => saveMailSettings(db, req.auth, req.body));
  route(app, c.testMail, async (req) => sendTestMail(db, req.auth.clubId));
}
