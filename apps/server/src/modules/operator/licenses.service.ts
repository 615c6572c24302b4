import { and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  LicenseRequestStatus,
  type LicenseLoadInput,
  type LicenseRequestDecision,
  type OperatorClub,
  type OperatorLicenseRequest,
  type OperatorLicenseRequestQuery,
} from '@venue/domain';
import type { Actor } from '../../lib/actor.js';
import type { Db } from '../../db/index.js';
import { clubs, licenseLoads, licenseRequests } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { operatorClub } from './clubs.service.js';

/**
 * The operator's licenses (issue 17 "Licenses"; seed 001 §3, §4; docs/operator.md):
 * every club's bank-transfer requests in one queue, the answer to each, and
 * loads by hand with a reason. Audit rows are in the club concerned, under the operator.
 */

const requestColumns = {
  id: licenseRequests.id,
  clubId: licenseRequests.clubId,
  externalClubId: clubs.externalClubId,
  clubName: clubs.name,
  quantity: licenseRequests.quantity,
  price: licenseRequests.price,
  amount: licenseRequests.amount,
  transferDate: licenseRequests.transferDate,
  reference: licenseRequests.reference,
  bankCode: licenseRequests.bankCode,
  fileName: licenseRequests.fileName,
  fileType: licenseRequests.fileType,
  status: licenseRequests.status,
  createdAt: licenseRequests.createdAt,
  decidedAt: licenseRequests.decidedAt,
  reason: licenseRequests.reason,
};

type RequestView = { createdAt: Date; decidedAt: Date | null } & Omit<
  OperatorLicenseRequest,
  'createdAt' | 'decidedAt'
>;

function present(r: RequestView): OperatorLicenseRequest {
  return { ...r, createdAt: r.createdAt.toISOString(), decidedAt: r.decidedAt?.toISOString() ?? null };
}

/**
 * Every club's license requests, pending first, then newest first
 * (GET /Operator/LicenseRequest); of one status when given. At most 500.
 */
export async function listAllLicenseRequests(
  db: Db,
  query: OperatorLicenseRequestQuery,
): Promise<OperatorLicenseRequest[]> {
  const rows = await db
    .select(requestColumns)
    .from(licenseRequests)
    .innerJoin(clubs, eq(clubs.id, licenseRequests.clubId))
    .where(query.status != null ? eq(licenseRequests.status, query.status) : undefined)
    .orderBy(
      asc(sql`case when ${licenseRequests.status} = ${LicenseRequestStatus.Pending} then 0 else 1 end`),
      desc(licenseRequests.createdAt),
      desc(licenseRequests.id),
    )
    .limit(500);
  return rows.map(present);
}

/** Content types of the reference files sniffed at upload (licenses.service `sniffReferenceFile`). */
const FILE_TYPES: Record<string, string> = { pdf: 'application/pdf', png: 'image/png', jpeg: 'image/jpeg' };

/**
 * A request's reference file: its bytes, content type and a plain file name.
 * @throws AppError NOT_FOUND (404) for an unknown id
 */
export async function licenseRequestFile(db: Db, id: number): Promise<{ content: Buffer; type: string; name: string }> {
  const [r] = await db
    .select({ file: licenseRequests.file, fileType: licenseRequests.fileType })
    .from(licenseRequests)
    .where(eq(licenseRequests.id, id));
  if (!r) throw notFound('license request');
  const ext = r.fileType === 'jpeg' ? 'jpg' : r.fileType;
  return {
    content: Buffer.from(r.file),
    type: FILE_TYPES[r.fileType] ?? 'application/octet-stream',
    name: `reference-${id}.${ext}`,
  };
}

/**
 * Answers a pending request (POST /Operator/LicenseRequest/{id}/Decide):
 * ApprovedLoaded adds its quantity to the club's pool once (in the same
 * transaction, only from Pending); RejectedByManager (reason required) and
 * CancelledByManager change only the status. Audited in the club.
 * @throws AppError NOT_FOUND (404) when no pending request has this id
 */
export async function decideLicenseRequest(
  db: Db,
  actor: Actor,
  id: number,
  decision: LicenseRequestDecision,
): Promise<OperatorLicenseRequest> {
  return db.transaction(async (tx) => {
    const [r] = await tx
      .update(licenseRequests)
      .set({ status: decision.status, reason: decision.reason ?? null, decidedBy: actor.userId, decidedAt: new Date() })
      .where(and(eq(licenseRequests.id, id), eq(licenseRequests.status, LicenseRequestStatus.Pending)))
      .returning({ id: licenseRequests.id, clubId: licenseRequests.clubId, quantity: licenseRequests.quantity });
    if (!r) throw notFound('pending license request');
    if (decision.status === LicenseRequestStatus.ApprovedLoaded) {
      await tx
        .update(clubs)
        .set({ licensesAmount: sql`${clubs.licensesAmount} + ${r.quantity}` })
        .where(eq(clubs.id, r.clubId));
    }
    await audit(
      tx,
      { clubId: r.clubId, userId: actor.userId, ip: actor.ip },
      {
        action: 'update',
        entity: 'licenseRequest',
        entityId: id,
        before: { status: LicenseRequestStatus.Pending },
        after: { status: decision.status, reason: decision.reason ?? null },
      },
    );
    const [row] = await tx
      .select(requestColumns)
      .from(licenseRequests)
      .innerJoin(clubs, eq(clubs.id, licenseRequests.clubId))
      .where(eq(licenseRequests.id, id));
    return present(row);
  });
}

/**
 * Loads licenses into a club by hand with a reason (POST /Operator/Club/{id}/LoadLicenses):
 * one `license_loads` row and the pool raised, in one transaction. Audited in the club.
 * @throws AppError NOT_FOUND (404) for an unknown club
 */
export async function loadLicenses(
  db: Db,
  actor: Actor,
  clubId: number,
  input: LicenseLoadInput,
): Promise<OperatorClub> {
  await db.transaction(async (tx) => {
    const [c] = await tx
      .update(clubs)
      .set({ licensesAmount: sql`${clubs.licensesAmount} + ${input.quantity}` })
      .where(eq(clubs.id, clubId))
      .returning({ id: clubs.id, licensesAmount: clubs.licensesAmount });
    if (!c) throw notFound('club');
    const [load] = await tx
      .insert(licenseLoads)
      .values({ clubId, quantity: input.quantity, reason: input.reason, userId: actor.userId })
      .returning({ id: licenseLoads.id });
    await audit(
      tx,
      { clubId, userId: actor.userId, ip: actor.ip },
      {
        action: 'create',
        entity: 'licenseLoad',
        entityId: load.id,
        after: { quantity: input.quantity, reason: input.reason, licensesAmount: c.licensesAmount },
      },
    );
  });
  return operatorClub(db, clubId);
}
