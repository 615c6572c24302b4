import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import {
  ClientStatus,
  normalizePhone,
  type MemberClub,
  type MemberContactPatch,
  type MemberDocument,
  type MemberEntrance,
  type MemberMe,
  type MemberMoney,
  type MemberPerson,
  type MemberSubscription,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { clients, clubs, debts, entranceLogs, groups, purchaseDocuments, purchases } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/errors.js';
import { validationError } from '../../lib/validation.js';
import { bindMemberSession, type MemberSession } from '../../lib/member-sessions.js';
import { clubToday } from '../clients/clients.service.js';
import { weekPreview } from '../schedules/schedules.service.js';
import { renewQuoteToday } from '../subscriptions/subscriptions.service.js';
import { issueSaleDocument, printDocument, type PrintedDocument } from '../documents/documents.service.js';
import { clubsOfContact, normalizeContact } from './member-sign-in.service.js';

/*
 * What a member sees (issue 37; docs/members.md "What a member sees"). Every
 * read is of the signed-in member's own client in the session's club, or of a
 * child linked to her (clients.parent_id); any other id answers 404, exactly
 * as another club's id does for staff.
 */

/** A member session with its club and client chosen (member routes other than the club list require it). */
export type BoundMember = MemberSession & { clubId: number; clientId: number };

/** Narrows a session to one with a chosen club (the auth plugin already refused one without, 404). */
export function bound(m: MemberSession): BoundMember {
  if (m.clubId == null || m.clientId == null) throw new AppError('NOT_FOUND', 'club not selected');
  return m as BoundMember;
}

/** The clubs the session's contact is on file in (GET /api/Member/Clubs). */
export async function memberClubs(db: Db, m: MemberSession): Promise<MemberClub[]> {
  const list = await clubsOfContact(db, normalizeContact(m.contact));
  return list.map(({ clubId, name }) => ({ clubId, name }));
}

/**
 * Chooses the club the session acts in (POST /api/Member/Club): one where its contact is on file.
 * @throws AppError NOT_FOUND for any other club
 */
export async function chooseMemberClub(db: Db, m: MemberSession, clubId: number): Promise<MemberClub> {
  const list = await clubsOfContact(db, normalizeContact(m.contact));
  const c = list.find((x) => x.clubId === clubId);
  if (!c) throw notFound('club');
  await bindMemberSession(db, m.sessionId, c.clubId, c.clientId);
  return { clubId: c.clubId, name: c.name };
}

/**
 * The client `clientId` when it is the member herself or a child linked to her, live, in her club.
 * @throws AppError NOT_FOUND otherwise (another member's id, another club's, a deleted client)
 */
export async function ownClient(db: Db, m: BoundMember, clientId: number) {
  const [c] = await db
    .select({ c: clients, groupName: groups.name })
    .from(clients)
    .leftJoin(groups, and(eq(groups.clubId, clients.clubId), eq(groups.id, clients.groupId)))
    .where(
      and(
        eq(clients.clubId, m.clubId),
        eq(clients.id, clientId),
        sql`${clients.status} <> ${ClientStatus.Deleted}`,
        sql`(${clients.id} = ${m.clientId} or ${clients.parentId} = ${m.clientId})`,
      ),
    )
    .limit(1);
  if (!c) throw notFound('client');
  return c;
}

/** Open debt totals (agorot) of clients of a club. */
async function openDebts(db: Db, clubId: number, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ clientId: debts.clientId, open: sql<number>`sum(${debts.amount} - ${debts.paid})::int` })
    .from(debts)
    .where(and(eq(debts.clubId, clubId), inArray(debts.clientId, ids), eq(debts.deleted, false)))
    .groupBy(debts.clientId);
  return new Map(rows.map((r) => [r.clientId, r.open]));
}

function person(c: typeof clients.$inferSelect, groupName: string | null, debt: number): MemberPerson {
  return {
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    phone: c.phone,
    email: c.email,
    groupName,
    subscriptionEnd: c.subscriptionEnd,
    balance: c.balance,
    debt,
  };
}

/** GET /api/Member/Me: the club, the member and the live children linked to her. */
export async function memberMe(db: Db, m: BoundMember): Promise<MemberMe> {
  const rows = await db
    .select({ c: clients, groupName: groups.name })
    .from(clients)
    .leftJoin(groups, and(eq(groups.clubId, clients.clubId), eq(groups.id, clients.groupId)))
    .where(
      and(
        eq(clients.clubId, m.clubId),
        sql`${clients.status} <> ${ClientStatus.Deleted}`,
        sql`(${clients.id} = ${m.clientId} or ${clients.parentId} = ${m.clientId})`,
      ),
    )
    .orderBy(clients.id);
  const self = rows.find((r) => r.c.id === m.clientId);
  if (!self) throw new AppError('UNAUTHORIZED', 'Authentication error');
  const owed = await openDebts(
    db,
    m.clubId,
    rows.map((r) => r.c.id),
  );
  const [club] = await db.select({ name: clubs.name }).from(clubs).where(eq(clubs.id, m.clubId));
  return {
    club: { clubId: m.clubId, name: club?.name ?? '' },
    member: person(self.c, self.groupName, owed.get(self.c.id) ?? 0),
    children: rows.filter((r) => r.c.id !== m.clientId).map((r) => person(r.c, r.groupName, owed.get(r.c.id) ?? 0)),
  };
}

/** Days from `today` to `end` counting both (YYYY-MM-DD); 0 when ended. */
function daysLeft(today: string, end: string | null): number | null {
  if (!end) return null;
  const d = (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000 + 1;
  return Math.max(0, Math.round(d));
}

/**
 * GET /api/Member/Subscription/{id}: the group, the dates, and the seven days
 * from today of the group's schedule at the club's location (the console's
 * week preview, schedules.service weekPreview), with today's renewal price.
 */
export async function memberSubscription(
  db: Db,
  m: BoundMember,
  clientId: number,
  lang: 'he' | 'en',
): Promise<MemberSubscription> {
  const { c, groupName } = await ownClient(db, m, clientId);
  const today = await clubToday(db, m.clubId);
  const week = c.groupId != null ? await weekPreview(db, m.clubId, c.groupId, { lang }) : null;
  let renewPrice: number | null = null;
  try {
    renewPrice = (await renewQuoteToday(db, m.clubId, c.id)).price;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
  }
  let location = week?.location ?? '';
  if (!week) {
    const [club] = await db.select({ location: clubs.location }).from(clubs).where(eq(clubs.id, m.clubId));
    location = (club?.location as { name?: string } | null)?.name ?? '';
  }
  return {
    clientId: c.id,
    groupName,
    subscriptionStart: c.subscriptionStart,
    subscriptionEnd: c.subscriptionEnd,
    daysLeft: daysLeft(today, c.subscriptionEnd),
    location,
    week: week?.days ?? [],
    renewPrice,
  };
}

/** GET /api/Member/Money/{id}: balances and open debts (agorot), newest first. */
export async function memberMoney(db: Db, m: BoundMember, clientId: number): Promise<MemberMoney> {
  const { c } = await ownClient(db, m, clientId);
  const rows = await db
    .select()
    .from(debts)
    .where(
      and(
        eq(debts.clubId, m.clubId),
        eq(debts.clientId, c.id),
        eq(debts.deleted, false),
        sql`${debts.amount} > ${debts.paid}`,
      ),
    )
    .orderBy(desc(debts.createdAt), desc(debts.id));
  return {
    clientId: c.id,
    balance: c.balance,
    tempBalance: c.tempBalance,
    debts: rows.map((d) => ({
      id: d.id,
      open: d.amount - d.paid,
      description: d.description,
      createdAt: d.createdAt.toISOString(),
    })),
  };
}

/** Entrances listed to a member: the latest this many. */
export const MEMBER_ENTRANCES_LIMIT = 100;

/** GET /api/Member/Entrances/{id}: the client's own entrances (her id, never a family member's on her account), newest first. */
export async function memberEntrances(db: Db, m: BoundMember, clientId: number): Promise<MemberEntrance[]> {
  const { c } = await ownClient(db, m, clientId);
  const rows = await db
    .select({ at: entranceLogs.at, status: entranceLogs.status, reason: entranceLogs.reason })
    .from(entranceLogs)
    .where(and(eq(entranceLogs.clubId, m.clubId), eq(entranceLogs.clientId, c.id)))
    .orderBy(desc(entranceLogs.at))
    .limit(MEMBER_ENTRANCES_LIMIT);
  return rows.map((r) => ({ at: r.at.toISOString(), status: r.status, reason: r.reason }));
}

/**
 * GET /api/Member/Documents/{id}: the tax documents of the client's purchases, newest first. A paid
 * purchase whose document was not printed yet gets it now (issueSaleDocument: the number is the
 * purchase's invoice number and the date the purchase's, so issuing it here or at the desk is the
 * same document), so every paid purchase has its document to download.
 */
export async function memberDocuments(db: Db, m: BoundMember, clientId: number): Promise<MemberDocument[]> {
  const { c } = await ownClient(db, m, clientId);
  const unissued = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(
      and(
        eq(purchases.clubId, m.clubId),
        eq(purchases.clientId, c.id),
        isNotNull(purchases.invoiceNumber),
        sql`not exists (select 1 from purchase_documents d where d.club_id = ${purchases.clubId} and d.purchase_id = ${purchases.id})`,
      ),
    )
    .orderBy(desc(purchases.id))
    .limit(200);
  for (const p of unissued) await issueSaleDocument(db, m.clubId, p.id, null);
  const rows = await db
    .select({ d: purchaseDocuments, total: purchases.total })
    .from(purchaseDocuments)
    .innerJoin(
      purchases,
      and(eq(purchases.clubId, purchaseDocuments.clubId), eq(purchases.id, purchaseDocuments.purchaseId)),
    )
    .where(and(eq(purchaseDocuments.clubId, m.clubId), eq(purchases.clientId, c.id)))
    .orderBy(desc(purchaseDocuments.id))
    .limit(200);
  return rows.map(({ d, total }) => ({
    id: d.id,
    purchaseId: d.purchaseId,
    kind: d.kind,
    number: d.number,
    issuedAt: d.issuedAt.toISOString(),
    total,
  }));
}

/**
 * GET /api/Member/Document/{id}/Pdf: the same PDF the console prints (counted:
 * the first print is the original, later ones copies), when the document is
 * of a purchase of the member or a child of hers.
 * @throws AppError NOT_FOUND otherwise
 */
export async function memberDocumentPdf(db: Db, m: BoundMember, documentId: number): Promise<PrintedDocument> {
  const [row] = await db
    .select({ id: purchaseDocuments.id })
    .from(purchaseDocuments)
    .innerJoin(
      purchases,
      and(eq(purchases.clubId, purchaseDocuments.clubId), eq(purchases.id, purchaseDocuments.purchaseId)),
    )
    .innerJoin(clients, and(eq(clients.clubId, purchases.clubId), eq(clients.id, purchases.clientId)))
    .where(
      and(
        eq(purchaseDocuments.clubId, m.clubId),
        eq(purchaseDocuments.id, documentId),
        sql`(${clients.id} = ${m.clientId} or ${clients.parentId} = ${m.clientId})`,
      ),
    )
    .limit(1);
  if (!row) throw notFound('document');
  return printDocument(db, m.clubId, row.id);
}

/**
 * PATCH /api/Member/Contact: the member's own phone (normalised to E.164)
 * and e-mail. A changed contact is where the next code goes; this session stays.
 * @throws AppError VALIDATION_ERROR (phone invalidPhone)
 */
export async function updateMemberContact(db: Db, m: BoundMember, patch: MemberContactPatch): Promise<MemberPerson> {
  const set: { phone?: string; email?: string } = {};
  if (patch.phone !== undefined) {
    if (patch.phone === '') set.phone = '';
    else {
      const p = normalizePhone(patch.phone);
      if (!p) throw validationError([{ path: 'phone', message: 'invalidPhone' }]);
      set.phone = p;
    }
  }
  if (patch.email !== undefined) set.email = patch.email.toLowerCase();
  if (Object.keys(set).length > 0)
    await db
      .update(clients)
      .set(set)
      .where(and(eq(clients.clubId, m.clubId), eq(clients.id, m.clientId)));
  const { c, groupName } = await ownClient(db, m, m.clientId);
  const owed = await openDebts(db, m.clubId, [c.id]);
  return person(c, groupName, owed.get(c.id) ?? 0);
}
