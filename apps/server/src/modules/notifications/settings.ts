import { and, eq } from 'drizzle-orm';
import { NotificationChoices, NotificationSettings } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { notificationChoices, notificationSettings } from '../../db/schema.js';
import type { Actor } from '../../lib/actor.js';
import { audit } from '../../lib/audit.js';
import { scoped } from '../../lib/scoped.js';
import { clients } from '../../db/schema.js';

/**
 * A club's notice settings and each client's notification choices (docs/notifications.md
 * "Settings", "Choices"). Choices are edited by the member app (h-members) and by the unsubscribe
 * link; a client who never chose gets every notice on both channels, in Hebrew.
 */

/** Who changed something: a staff actor, the member themself, or the unsubscribe link (no user). */
export type ChoiceActor = Pick<Actor, 'ip'> & { clubId: number; userId: number | null };

/** The club's notice settings, defaults applied (never saved = all defaults). */
export async function getNotificationSettings(db: Db | Tx, clubId: number): Promise<NotificationSettings> {
  const [row] = await db
    .select({ s: notificationSettings.settings })
    .from(notificationSettings)
    .where(eq(notificationSettings.clubId, clubId));
  const parsed = NotificationSettings.safeParse(row?.s ?? {});
  return parsed.success ? parsed.data : NotificationSettings.parse({});
}

/** PUT /api/Notification/Settings: saves the club's notice settings whole. Audited. */
export async function saveNotificationSettings(
  db: Db,
  actor: Actor,
  input: NotificationSettings,
): Promise<NotificationSettings> {
  return db.transaction(async (tx) => {
    const before = await getNotificationSettings(tx, actor.clubId);
    await tx
      .insert(notificationSettings)
      .values({ clubId: actor.clubId, settings: input, updatedAt: new Date() })
      .onConflictDoUpdate({ target: notificationSettings.clubId, set: { settings: input, updatedAt: new Date() } });
    await audit(tx, actor, {
      action: 'update',
      entity: 'notificationSettings',
      entityId: actor.clubId,
      before,
      after: input,
    });
    return input;
  });
}

/**
 * A client's notification choices (defaults when never set).
 * @throws AppError NOT_FOUND when the client is not the club's
 */
export async function getNotificationChoices(
  db: Db | Tx,
  clubId: number,
  clientId: number,
): Promise<NotificationChoices> {
  await scoped(db, clubId).one(clients, clientId, 'client');
  return choicesOf(db, clubId, clientId);
}

/** The stored choices or the defaults, without checking the client (the worker's read). */
export async function choicesOf(db: Db | Tx, clubId: number, clientId: number): Promise<NotificationChoices> {
  const [row] = await db
    .select()
    .from(notificationChoices)
    .where(and(eq(notificationChoices.clubId, clubId), eq(notificationChoices.clientId, clientId)));
  if (!row) return NotificationChoices.parse({});
  const parsed = NotificationChoices.safeParse({
    email: row.email,
    sms: row.sms,
    offKinds: row.offKinds,
    lang: row.lang,
  });
  return parsed.success ? parsed.data : NotificationChoices.parse({});
}

/**
 * Sets a client's notification choices (a partial change: what is left out is kept); audited with
 * the actor (a staff user, the member, or none for the unsubscribe link).
 * @throws AppError NOT_FOUND when the client is not the club's
 */
export async function setNotificationChoices(
  db: Db,
  actor: ChoiceActor,
  clientId: number,
  change: Partial<NotificationChoices>,
): Promise<NotificationChoices> {
  return db.transaction(async (tx) => {
    const before = await getNotificationChoices(tx, actor.clubId, clientId);
    const next = NotificationChoices.parse({ ...before, ...change });
    const values = {
      email: next.email,
      sms: next.sms,
      offKinds: next.offKinds,
      lang: next.lang,
      updatedAt: new Date(),
    };
    await tx
      .insert(notificationChoices)
      .values({ clubId: actor.clubId, clientId, ...values })
      .onConflictDoUpdate({ target: [notificationChoices.clubId, notificationChoices.clientId], set: values });
    await audit(tx, actor, {
      action: 'update',
      entity: 'notificationChoices',
      entityId: clientId,
      before,
      after: next,
    });
    return next;
  });
}
