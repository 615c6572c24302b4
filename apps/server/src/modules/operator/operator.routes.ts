import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import { decideLicenseRequest, licenseRequestFile, listAllLicenseRequests, loadLicenses } from './licenses.service.js';
import { createOperatorClub, listOperatorClubs, setClubDisabled } from './clubs.service.js';
import {
  createScriptVersion,
  deleteScriptVersion,
  closeMaintenancePools,
  executeMaintenanceSql,
  listScriptVersions,
  updateScriptVersion,
} from './maintenance.service.js';
import {
  clubBilling,
  listClubCharges,
  listFleet,
  operatorClubSettings,
  startChargeClub,
  updateOperatorClubSettings,
} from './billing.service.js';

/**
 * The operator's calls (docs/operator.md): `contract.operatorMaintenance`, `contract.operatorClubs`,
 * `contract.operatorLicenses` and `contract.operatorBilling`.
 */
export async function operatorRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { bus } = app.deps;
  const c = contract.operatorMaintenance;
  route(app, c.scriptVersions, async () => listScriptVersions(db));
  route(app, c.createScriptVersion, async (req) => createScriptVersion(db, req.auth, req.body));
  route(app, c.updateScriptVersion, async (req) => updateScriptVersion(db, req.auth, req.params.id, req.body));
  route(app, c.deleteScriptVersion, async (req) => deleteScriptVersion(db, req.auth, req.params.id));
  // The password is read per request, so a restart is not the only way to turn it off in tests.
  route(app, c.executeSql, async (req) =>
    executeMaintenanceSql(
      db,
      req.auth,
      req.body,
      app.deps.config.maintenancePassword,
      app.deps.config.maintenanceDatabaseUrl,
    ),
  );
  app.addHook('onClose', closeMaintenancePools);
  const clubs = contract.operatorClubs;
  route(app, clubs.list, async (req) => listOperatorClubs(db, req.query));
  route(app, clubs.create, async (req) => createOperatorClub(db, req.auth, req.body));
  route(app, clubs.disable, async (req) => setClubDisabled(db, app.deps.bus, req.auth, req.params.id, true));
  route(app, clubs.enable, async (req) => setClubDisabled(db, app.deps.bus, req.auth, req.params.id, false));
  const lic = contract.operatorLicenses;
  route(app, lic.requests, async (req) => listAllLicenseRequests(db, req.query));
  route(app, lic.requestFile, async (req, reply) => {
    const f = await licenseRequestFile(db, req.params.id);
    // Inline, so the console shows it; the type is the one sniffed from the content at upload.
    return reply
      .header('content-type', f.type)
      .header('content-disposition', `inline; filename="${f.name}"`)
      .header('x-content-type-options', 'nosniff')
      .send(f.content);
  });
  // After the commit, the club's consoles are told (live feed `licenses`, every server instance).
  route(app, lic.decide, async (req) => {
    const r = await decideLicenseRequest(db, req.auth, req.params.id, req.body);
    bus.publish('licenses', { clubId: r.clubId, requestId: r.id, status: r.status });
    return r;
  });
  route(app, lic.load, async (req) => {
    const club = await loadLicenses(db, req.auth, req.params.id, req.body);
    bus.publish('licenses', { clubId: club.id, requestId: null, status: null });
    return club;
  });
  const bill = contract.operatorBilling;
  route(app, bill.startCharge, async (req) =>
    startChargeClub(db, clearingProvider(), req.auth, req.params.id, req.body),
  );
  route(app, bill.charges, async (req) => listClubCharges(db, req.query));
  route(app, bill.fleet, async (req) => listFleet(db, req.query));
  route(app, bill.settings, async (req) => operatorClubSettings(db, req.params.id));
  route(app, bill.updateSettings, async (req) => updateOperatorClubSettings(db, req.auth, req.params.id, req.body));
  route(app, bill.clubBilling, async (req) => clubBilling(db, req.auth.clubId));
}
