import { timingSafeEqual, createHash } from 'node:crypto';
import type { Actor } from '../../lib/actor.js';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  EMPLOYEE_CLIENT_TYPES,
  ClientType,
  type BiometricDeleted,
  type BiometricKind,
  type EnrollErrorCode,
  type FaceImages,
  type ServerEnrolled,
  type TerminalEnroll,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { auditLog, biometricTemplates, clients, clubs, terminals } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { dataKeys, decrypt, encrypt } from '../../lib/crypto.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { pgError } from '../../lib/validation.js';
import { templateMac } from '../gate/entrance.service.js';
import { clubSettings } from '../club/club.service.js';
import type { EventBus, TemplateChange } from '../../lib/event-bus.js';

/**
 * Identification by fingerprint and face (seed 001 §3), enrolment at the
 * terminal and the staff's biometric calls (seed 000 §7: DeleteFmd,
 * DeleteBiometricDataForClient, GetFaceImages). Templates are highly
 * sensitive (DOMAIN-FACTS: Privacy Protection Regulations, Amendment 13):
 * stored AES-256-GCM encrypted with an HMAC index (lib/crypto.ts), never sent
 * to the console, every enrolment, deletion and face-image view audited.
 *
 * Matching: the real matcher SDK of a terminal compares fingerprints and
 * faces locally and presents the enrolled template it matched; the server
 * stores what the terminal sent and matches a presented template by exact
 * equality of its keyed HMAC (docs/api-gate.md "Biometrics").
 */

/** Templates one client may hold per kind (ten fingers; a few face captures). */
export const MAX_TEMPLATES_PER_KIND = 10;

const aad = (clubId: number, clientId: number, kind: string, part: 'template' | 'image') =>
  `club:${clubId}:client:${clientId}:${kind}:${part}`;

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison of an enrolment password. */
function samePassword(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

export interface TerminalLink {
  clubId: number;
  terminalId: number;
}

/**
 * Enrols a card, fingerprint or face at a terminal (seed 001 §3 enrolment
 * allowances and enrolment password; seed 000 §3 self-registration settings).
 *
 * Allowed when: the terminal is approved and flagged allowEnrollment
 * (terminals.settings), the club allows that kind in self-registration
 * (allowEnrollment<Kind>InSelfRegister), the client (by number, not deleted)
 * has an enrolment password equal to `password`, and the client's own
 * allowance for the kind is on; with employee attendance on, an employee
 * (Manager or Technician client) also needs isEmployeeEnrollmentEnabled. A card sets the client's card serial (refused
 * when another client holds it: CARD_TAKEN); a template is stored encrypted
 * (refused when another client enrolled the same one: TEMPLATE_TAKEN; at most
 * MAX_TEMPLATES_PER_KIND per kind). Enrolling what the client already has
 * answers ok again (a resend is harmless). Writes an audit row (user null:
 * the client did it at the terminal) and pushes the template to the club's
 * terminals.
 */
export async function enrollAtTerminal(
  db: Db,
  bus: EventBus,
  link: TerminalLink,
  m: TerminalEnroll,
): Promise<ServerEnrolled> {
  const refuse = (code: EnrollErrorCode, clientName?: string): ServerEnrolled => ({
    type: 'enrolled',
    eventId: m.eventId,
    ok: false,
    code,
    ...(clientName ? { clientName } : {}),
  });
  const [t] = await db
    .select({ approved: terminals.approved, settings: terminals.settings, clubSettings: clubs.settings })
    .from(terminals)
    .innerJoin(clubs, eq(clubs.id, terminals.clubId))
    .where(scoped(db, link.clubId).live(terminals, eq(terminals.id, link.terminalId)));
  if (!t || !t.approved) return refuse('TERMINAL_NOT_APPROVED');
  const club = clubSettings({ settings: t.clubSettings });
  const terminalAllows = t.settings.allowEnrollment === true;
  const clubAllows = {
    fingerprint: club.allowEnrollmentFingerprintInSelfRegister,
    card: club.allowEnrollmentCardInSelfRegister,
    face: club.allowEnrollmentFaceInSelfRegister,
  }[m.kind];

  const [c] = await db
    .select()
    .from(clients)
    .where(scoped(db, link.clubId).live(clients, eq(clients.number, m.clientNumber)));
  if (!c) return refuse('CLIENT_NOT_FOUND');
  const name = `${c.firstName} ${c.lastName}`.trim();
  if (!c.enrollPassword || !samePassword(c.enrollPassword, m.password)) return refuse('WRONG_PASSWORD');
  const clientAllows = { fingerprint: c.allowEnrollFingerprint, card: c.allowEnrollCard, face: c.allowEnrollFace }[
    m.kind
  ];
  if (!terminalAllows || !clubAllows || !clientAllows) return refuse('ENROLLMENT_NOT_ALLOWED', name);
  // Attendance on: employees (Manager, Technician clients) enrol only with isEmployeeEnrollmentEnabled (docs/attendance.md).
  const employee = EMPLOYEE_CLIENT_TYPES.includes(c.clientType);
  if (employee && club.isEmployeeAttendanceEnabled && !club.isEmployeeEnrollmentEnabled) {
    return refuse('ENROLLMENT_NOT_ALLOWED', name);
  }

  if (m.kind === 'card') {
    if (c.cardSerial === m.template) return { type: 'enrolled', eventId: m.eventId, ok: true, clientName: name };
    try {
      await db.transaction(async (tx) => {
        await tx.update(clients).set({ cardSerial: m.template }).where(eq(clients.id, c.id));
        await tx.insert(auditLog).values({
          clubId: link.clubId,
          action: 'enroll',
          entity: 'client.card',
          entityId: String(c.id),
          before: { cardSerial: c.cardSerial },
          after: { cardSerial: m.template, terminalId: link.terminalId },
        });
      });
    } catch (err) {
      if (pgError(err).code === '23505') return refuse('CARD_TAKEN', name);
      throw err;
    }
    return { type: 'enrolled', eventId: m.eventId, ok: true, clientName: name };
  }

  const kind = m.kind;
  const keys = await dataKeys(db);
  const macValue = templateMac(keys, link.clubId, kind, m.template);
  const [existing] = await db
    .select({ id: biometricTemplates.id, clientId: biometricTemplates.clientId })
    .from(biometricTemplates)
    .where(
      scoped(db, link.clubId).where(
        biometricTemplates,
        eq(biometricTemplates.kind, kind),
        eq(biometricTemplates.templateMac, macValue),
      ),
    );
  if (existing) {
    if (existing.clientId !== c.id) return refuse('TEMPLATE_TAKEN', name);
    return { type: 'enrolled', eventId: m.eventId, ok: true, templateId: existing.id, clientName: name };
  }
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(biometricTemplates)
    .where(and(eq(biometricTemplates.clientId, c.id), eq(biometricTemplates.kind, kind)));
  if (Number(n) >= MAX_TEMPLATES_PER_KIND) return refuse('ENROLLMENT_NOT_ALLOWED', name);

  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(biometricTemplates)
        .values({
          clubId: link.clubId,
          clientId: c.id,
          kind,
          templateEnc: encrypt(keys, m.template, aad(link.clubId, c.id, kind, 'template')),
          templateMac: macValue,
          imageEnc: kind === 'face' && m.image ? encrypt(keys, m.image, aad(link.clubId, c.id, kind, 'image')) : null,
          terminalId: link.terminalId,
        })
        .returning({ id: biometricTemplates.id });
      await tx.insert(auditLog).values({
        clubId: link.clubId,
        action: 'enroll',
        entity: `biometric.${kind}`,
        entityId: String(row.id),
        after: { clientId: c.id, terminalId: link.terminalId },
      });
      return row.id;
    });
  } catch (err) {
    // Another enrolment of the same template won the race.
    if (pgError(err).code === '23505') return refuse('TEMPLATE_TAKEN', name);
    throw err;
  }
  bus.publish('gate-push', {
    clubId: link.clubId,
    what: 'templates',
    changes: [{ action: 'added', templateId: id, kind, clientNumber: c.number }],
  });
  return { type: 'enrolled', eventId: m.eventId, ok: true, templateId: id, clientName: name };
}

/** A client of the club (not deleted) or 404; technician-type clients refuse biometric deletion (seed 001 §5). */
async function clientForBiometrics(db: Db, clubId: number, clientId: number) {
  const [c] = await db
    .select({ id: clients.id, number: clients.number, clientType: clients.clientType })
    .from(clients)
    .where(scoped(db, clubId).where(clients, eq(clients.id, clientId)));
  if (!c) throw notFound('client');
  return c;
}

function refuseTechnician(clientType: number): void {
  if (clientType === ClientType.Technician) {
    throw new AppError(
      'TECHNICIAN_BIOMETRIC_PROTECTED',
      'A fingerprint cannot be deleted for a technician-type client',
    );
  }
}

/**
 * DELETE /api/DeleteFmd/{id}: deletes one biometric template of the club
 * (404 for another club's or an unknown id; 422
 * TECHNICIAN_BIOMETRIC_PROTECTED for a technician-type client's). Audited;
 * the club's terminals are told to drop it.
 */
export async function deleteTemplate(db: Db, bus: EventBus, actor: Actor, id: number): Promise<BiometricDeleted> {
  const clubId = actor.clubId;
  const [t] = await db
    .select({ id: biometricTemplates.id, clientId: biometricTemplates.clientId, kind: biometricTemplates.kind })
    .from(biometricTemplates)
    .where(scoped(db, clubId).where(biometricTemplates, eq(biometricTemplates.id, id)));
  if (!t) throw notFound('template');
  const c = await clientForBiometrics(db, clubId, t.clientId);
  refuseTechnician(c.clientType);
  await db.transaction(async (tx) => {
    await tx.delete(biometricTemplates).where(eq(biometricTemplates.id, t.id));
    await audit(tx, actor, {
      action: 'delete',
      entity: `biometric.${t.kind as BiometricKind}`,
      entityId: t.id,
      before: { clientId: t.clientId, kind: t.kind },
    });
  });
  publishDeleted(bus, clubId, c.number, [t]);
  return { deleted: 1 };
}

/**
 * DELETE /api/Client/DeleteBiometricDataForClient/{id}: deletes every
 * fingerprint and face template (with face images) of a client of the club.
 * 404 for another club's client; 422 TECHNICIAN_BIOMETRIC_PROTECTED for a
 * technician-type client. Audited with the ids deleted; terminals told.
 */
export async function deleteClientBiometrics(
  db: Db,
  bus: EventBus,
  actor: Actor,
  clientId: number,
): Promise<BiometricDeleted> {
  const clubId = actor.clubId;
  const c = await clientForBiometrics(db, clubId, clientId);
  refuseTechnician(c.clientType);
  const gone = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(biometricTemplates)
      .where(scoped(tx, clubId).where(biometricTemplates, eq(biometricTemplates.clientId, c.id)))
      .returning({ id: biometricTemplates.id, kind: biometricTemplates.kind });
    await audit(tx, actor, {
      action: 'delete',
      entity: 'biometric.client',
      entityId: c.id,
      before: { templates: rows.map((r) => ({ id: r.id, kind: r.kind })) },
      after: { templates: [] },
    });
    return rows;
  });
  publishDeleted(bus, clubId, c.number, gone);
  return { deleted: gone.length };
}

/** Tells the club's terminals that templates of one client are gone (in messages of 50): enrolment removal, erasure, retention. */
export function publishDeleted(
  bus: EventBus,
  clubId: number,
  clientNumber: number,
  rows: { id: number; kind: string }[],
) {
  if (rows.length === 0) return;
  const changes: TemplateChange[] = rows.map((r) => ({
    action: 'deleted',
    templateId: r.id,
    kind: r.kind as TemplateChange['kind'],
    clientNumber,
  }));
  for (let i = 0; i < changes.length; i += 50) {
    bus.publish('gate-push', { clubId, what: 'templates', changes: changes.slice(i, i + 50) });
  }
}

/**
 * GET /api/Client/GetFaceImages/{id}: the face enrolment images of a client
 * of the club as data URLs, decrypted (404 for another club's client). The
 * view is written to the audit log (access to biometric data is logged).
 */
export async function faceImages(db: Db, actor: Actor, clientId: number): Promise<FaceImages> {
  const clubId = actor.clubId;
  await clientForBiometrics(db, clubId, clientId);
  const rows = await db
    .select({
      id: biometricTemplates.id,
      imageEnc: biometricTemplates.imageEnc,
      createdAt: biometricTemplates.createdAt,
    })
    .from(biometricTemplates)
    .where(
      scoped(db, clubId).where(
        biometricTemplates,
        eq(biometricTemplates.clientId, clientId),
        eq(biometricTemplates.kind, 'face'),
      ),
    )
    .orderBy(asc(biometricTemplates.id));
  const keys = await dataKeys(db);
  const items = rows
    .filter((r) => r.imageEnc)
    .map((r) => ({
      id: r.id,
      image: decrypt(keys, r.imageEnc!, aad(clubId, clientId, 'face', 'image')),
      createdAt: r.createdAt.toISOString(),
    }));
  await audit(db, actor, {
    action: 'view',
    entity: 'biometric.faceImages',
    entityId: clientId,
    after: { count: items.length },
  });
  return { items };
}

/**
 * The `templates` message for changes of a club: added templates are read
 * and decrypted for the terminal's matcher; deleted ones carry ids only.
 */
export async function templatesMessage(db: Db, clubId: number, changes: TemplateChange[]) {
  const added = changes.filter((c) => c.action === 'added').map((c) => c.templateId);
  const rows =
    added.length > 0
      ? await db
          .select({
            id: biometricTemplates.id,
            clientId: biometricTemplates.clientId,
            kind: biometricTemplates.kind,
            templateEnc: biometricTemplates.templateEnc,
          })
          .from(biometricTemplates)
          .where(scoped(db, clubId).where(biometricTemplates, inArray(biometricTemplates.id, added.map(Number))))
      : [];
  const keys = rows.length > 0 ? await dataKeys(db) : null;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    type: 'templates' as const,
    changes: changes.flatMap((c) => {
      if (c.action === 'deleted') return [c];
      const r = byId.get(c.templateId);
      if (!r || !keys) return []; // deleted again meanwhile
      return [{ ...c, template: decrypt(keys, r.templateEnc, aad(clubId, r.clientId, r.kind, 'template')) }];
    }),
  };
}
