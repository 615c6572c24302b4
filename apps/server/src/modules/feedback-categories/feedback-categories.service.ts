import { desc } from 'drizzle-orm';
import type { FeedbackCategory, FeedbackCategoryInput, FeedbackCategoryPatch, TerminalMode } from '@venue/domain';
import type { Actor } from '../../lib/actor.js';
import type { Db } from '../../db/index.js';
import { feedbackCategories } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { scoped } from '../../lib/scoped.js';

/**
 * Feedback categories of a club (seed 001 §3 "Feedback category", seed 000 §7
 * /FeedbackCategory, docs/messages.md): what a client or staff member reports
 * an incident about. The club is always the caller's (the seed adds clubId to
 * the payload; we take it from the session). Deleting is soft, so incident
 * reports keep their category. Every change is audited.
 */

type Row = typeof feedbackCategories.$inferSelect;
const WHAT = 'feedback category';

/** Row → answer (the one place a category is presented). */
function present(r: Row): FeedbackCategory {
  return {
    id: r.id,
    clubId: r.clubId,
    name: r.name,
    type: r.type as TerminalMode,
    reportingSystemCategoryId: r.reportingSystemCategoryId,
    defaultSeverityId: r.defaultSeverityId,
    reportingSystemLocationId: r.reportingSystemLocationId,
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** GET /api/FeedbackCategory: the club's categories (not deleted), newest first. */
export async function listFeedbackCategories(
  db: Db,
  clubId: number,
): Promise<{ items: FeedbackCategory[]; total: number }> {
  const rows = await db
    .select()
    .from(feedbackCategories)
    .where(scoped(db, clubId).live(feedbackCategories))
    .orderBy(desc(feedbackCategories.id));
  return { items: rows.map(present), total: rows.length };
}

/**
 * GET /api/FeedbackCategory/{id}.
 * @throws AppError NOT_FOUND (404) for another club's id or a deleted category
 */
export async function getFeedbackCategory(db: Db, clubId: number, id: number): Promise<FeedbackCategory> {
  return present(await scoped(db, clubId).one(feedbackCategories, id, WHAT, { live: true }));
}

/** POST /api/FeedbackCategory: a category of the caller's club (required fields: seed 001 §5, checked by the schema). Audited. */
export async function createFeedbackCategory(
  db: Db,
  actor: Actor,
  input: FeedbackCategoryInput,
): Promise<FeedbackCategory> {
  // The body's clubId (seed 000 §7) is never trusted: the club is the actor's.
  const { clubId: _bodyClubId, ...fields } = input;
  return db.transaction(async (tx) => {
    const [r] = await tx
      .insert(feedbackCategories)
      .values({ ...fields, clubId: actor.clubId })
      .returning();
    await audit(tx, actor, { action: 'create', entity: 'feedbackCategory', entityId: r.id, after: r });
    return present(r);
  });
}

/**
 * PATCH /api/FeedbackCategory/{id}: fields left out stay as stored. Audited.
 * @throws AppError NOT_FOUND (404) for another club's id or a deleted category
 */
export async function updateFeedbackCategory(
  db: Db,
  actor: Actor,
  id: number,
  patch: FeedbackCategoryPatch,
): Promise<FeedbackCategory> {
  return db.transaction(async (tx) => {
    const s = scoped(tx, actor.clubId);
    const before = await s.one(feedbackCategories, id, WHAT, { live: true, forUpdate: true });
    const { clubId: _bodyClubId, ...fields } = patch;
    const r = (await s.update(feedbackCategories, id, { ...fields, updatedAt: new Date() }))!;
    await audit(tx, actor, { action: 'update', entity: 'feedbackCategory', entityId: id, before, after: r });
    return present(r);
  });
}

/**
 * DELETE /api/FeedbackCategory/{id}: marks the category deleted (incident
 * reports keep it). Audited.
 * @throws AppError NOT_FOUND (404) for another club's id or a category already deleted
 */
export async function deleteFeedbackCategory(db: Db, actor: Actor, id: number): Promise<{ ok: true }> {
  return db.transaction(async (tx) => {
    const s = scoped(tx, actor.clubId);
    const before = await s.one(feedbackCategories, id, WHAT, { live: true, forUpdate: true });
    await s.update(feedbackCategories, id, { deleted: true, updatedAt: new Date() });
    await audit(tx, actor, { action: 'delete', entity: 'feedbackCategory', entityId: id, before });
    return { ok: true as const };
  });
}
