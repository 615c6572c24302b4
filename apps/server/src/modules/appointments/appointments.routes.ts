import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import {
  acceptOffer,
  addToWaitlist,
  cancelBooking,
  createBooking,
  createResource,
  deleteResource,
  evening,
  listResources,
  listSlots,
  listWaitlist,
  moveBooking,
  readBookingSettings,
  removeFromWaitlist,
  saveBookingSettings,
  setBookingStatus,
  updateResource,
  viewerOf,
} from './appointments.service.js';
import { startAppointmentJobs } from './appointments.jobs.js';

/** Immersion appointments by staff (docs/appointments.md); the entries are `contract.appointments`. */
export async function appointmentRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.appointments;
  const staff = (auth: { userId: number }) => ({ source: 'staff' as const, userId: auth.userId });
  route(app, c.resources, async (req) => listResources(db, req.auth.clubId));
  route(app, c.createResource, async (req) => createResource(db, req.auth.clubId, req.body));
  route(app, c.updateResource, async (req) => updateResource(db, req.auth.clubId, req.params.id, req.body));
  route(app, c.deleteResource, async (req) => deleteResource(db, req.auth.clubId, req.params.id));
  route(app, c.settings, async (req) => readBookingSettings(db, req.auth.clubId));
  route(app, c.saveSettings, async (req) => saveBookingSettings(db, req.auth.clubId, req.body));
  route(app, c.slots, async (req) => listSlots(db, req.auth.clubId, req.query));
  route(app, c.evening, async (req) => evening(db, req.auth.clubId, req.query.date, viewerOf(req.auth)));
  route(app, c.create, async (req) =>
    createBooking(
      db,
      clearingProvider(),
      req.auth.clubId,
      req.body,
      { ...staff(req.auth), actor: req.auth },
      viewerOf(req.auth),
    ),
  );
  route(app, c.move, async (req) => moveBooking(db, req.auth.clubId, req.params.id, req.body, viewerOf(req.auth)));
  route(app, c.cancel, async (req) =>
    cancelBooking(
      db,
      clearingProvider(),
      req.auth.clubId,
      req.params.id,
      { source: 'staff', actor: req.auth },
      viewerOf(req.auth),
    ),
  );
  route(app, c.setStatus, async (req) =>
    setBookingStatus(db, req.auth.clubId, req.params.id, req.body.status, viewerOf(req.auth)),
  );
  route(app, c.accept, async (req) =>
    acceptOffer(
      db,
      clearingProvider(),
      req.auth.clubId,
      req.params.id,
      req.body,
      { ...staff(req.auth), actor: req.auth },
      viewerOf(req.auth),
    ),
  );
  route(app, c.waitlist, async (req) => listWaitlist(db, req.auth.clubId, req.query.date, viewerOf(req.auth)));
  route(app, c.addWaitlist, async (req) => addToWaitlist(db, req.auth.clubId, req.body, viewerOf(req.auth)));
  route(app, c.removeWaitlist, async (req) => removeFromWaitlist(db, req.auth.clubId, req.params.id));
  startAppointmentJobs(app);
}
