import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route, sendDownload } from '../../lib/contract-route.js';
import { buildMoveinPrm } from '../../integrations/accounting/movein.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import { chargeClub, getHashavshevet, updateHashavshevet, updateSumit, writeMovein } from './accounting.service.js';

/** Accounting export and the club's invoicing/charging settings (seed 000 §7); the entries are `contract.accounting`. */
export async function accountingRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.accounting;
  route(app, c.moveinDat, async (req, reply) =>
    sendDownload(reply, 'MOVEIN.DAT', await writeMovein(db, req.auth.clubId, req.body.from, req.body.to)),
  );
  route(app, c.moveinPrm, async (_req, reply) => sendDownload(reply, 'MOVEIN.PRM', buildMoveinPrm()));
  route(app, c.hashavshevet, async (req) => getHashavshevet(db, req.auth.clubId));
  route(app, c.updateHashavshevet, async (req) => updateHashavshevet(db, req.auth, req.params.id, req.body));
  route(app, c.updateSumit, async (req) => updateSumit(db, req.auth, req.params.id, req.body));
  route(app, c.chargeClub, async (req) => chargeClub(app.deps.database, clearingProvider(), req.auth));
}
