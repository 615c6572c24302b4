import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route, sendDownload } from '../../lib/contract-route.js';
import { accessOfClient } from './access.service.js';
import { clientCopy, eraseClient } from './client-data.js';
import { renderClientCopyPdf } from './client-copy-pdf.js';
import {
  RETENTION_PAUSE_MS,
  RETENTION_YIELD_FACTOR,
  retainClub,
  retentionStatus,
  startRetentionScheduler,
} from './retention.js';

/** Privacy (issue 39, docs/privacy.md); the entries are `contract.privacy`. Starts the nightly retention job. */
export async function privacyRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { bus } = app.deps;
  const c = contract.privacy;
  route(app, c.retention, async (req) => retentionStatus(db, req.auth.clubId));
  route(app, c.runRetention, async (req) =>
    retainClub(db, bus, req.auth.clubId, new Date(), {
      pauseMs: RETENTION_PAUSE_MS,
      yieldFactor: RETENTION_YIELD_FACTOR,
    }),
  );
  route(app, c.copy, async (req) => clientCopy(db, req.auth.clubId, req.params.id));
  route(app, c.copyPdf, async (req, reply) => {
    const copy = await clientCopy(db, req.auth.clubId, req.params.id);
    const number = Number((copy.tables.clients ?? []).find((r) => r.id === req.params.id)?.number ?? 0);
    const pdf = await renderClientCopyPdf(copy, number, req.query.lang);
    return sendDownload(reply, `client-${number}-copy.pdf`, pdf, 'application/pdf');
  });
  route(app, c.erase, async (req) => eraseClient(db, bus, req.auth, req.params.id, req.body.confirmNumber));
  route(app, c.accessOfClient, async (req) => accessOfClient(db, req.auth.clubId, req.params.id));
  startRetentionScheduler(app);
}
