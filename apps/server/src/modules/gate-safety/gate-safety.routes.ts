import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { getSafety, listOverrides, setOverride, setSafety } from '../gate/safety.service.js';

/**
 * The gate in an emergency (issue 36, docs/gate-safety.md); the entries are `contract.gateSafety`.
 * The state and its rules live with the gate's decision (modules/gate/safety.service.ts).
 */
export async function gateSafetyRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { bus } = app.deps;
  const c = contract.gateSafety;
  route(app, c.state, async (req) => getSafety(db, req.auth.clubId));
  route(app, c.openAll, async (req) =>
    setSafety(db, bus, req.auth.clubId, 'openAll', true, req.body.reason, { actor: req.auth }),
  );
  route(app, c.releaseOpenAll, async (req) =>
    setSafety(db, bus, req.auth.clubId, 'openAll', false, req.body.reason, { actor: req.auth }),
  );
  route(app, c.lockdown, async (req) =>
    setSafety(db, bus, req.auth.clubId, 'lockdown', true, req.body.reason, { actor: req.auth }),
  );
  route(app, c.releaseLockdown, async (req) =>
    setSafety(db, bus, req.auth.clubId, 'lockdown', false, req.body.reason, { actor: req.auth }),
  );
  route(app, c.overrides, async (req) => listOverrides(db, req.auth.clubId));
  route(app, c.grantOverride, async (req) => setOverride(db, bus, req.auth, req.params.id, true));
  route(app, c.withdrawOverride, async (req) => setOverride(db, bus, req.auth, req.params.id, false));
}
