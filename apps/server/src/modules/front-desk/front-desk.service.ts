import { and, asc, desc, eq, gt, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  can,
  ClientStatus,
  EntrancePaymentType,
  EntranceState,
  EntranceStatus,
  FRONT_DESK_MAX_MATCHES,
  PurchaseItemType,
  Reason,
  type CheckInRequest,
  type CheckInResult,
  type DeskDecision,
  type DeskVerdict,
  type EntranceRow,
  type FrontDeskFindResult,
  type FrontDeskGate,
  type FrontDeskGlance,
  type SellEntranceRequest,
  type SellEntranceResult,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import {
  biometricTemplates,
  clients,
  clubs,
  debts,
  entranceLogs,
  entranceOverrides,
  groups,
  terminals,
} from '../../db/schema.js';
import type { Actor } from '../../lib/actor.js';
import { accessContext } from '../../lib/access.js';
import { audit } from '../../lib/audit.js';
import { clockNow } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { EventBus } from '../../lib/event-bus.js';
import { scoped } from '../../lib/scoped.js';
import type { TerminalActions } from '../../lib/terminal-actions.js';
import type { TerminalRegistry } from '../../lib/terminal-registry.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { clubToday } from '../club/club.service.js';
import { searchCondition } from '../clients/clients.service.js';
import { decideIfPaid, entrancePrice, stateInForce, subscriptionValid, type Decision } from '../gate/entrance.js';
import { findByEvent, previewEntrance, processEntrance, writePaidEntrance } from '../gate/entrance.service.js';
import { createPurchase, getPurchase } from '../purchases/purchase.service.js';
import { purchaseIdByKey } from '../purchases/purchase-present.js';
import { assertMayGiveFree } from '../purchases/purchases.service.js';
import { isTerminalConnected } from '../terminals/terminals.service.js';

/**
 * The front desk (issue 35; docs/front-desk.md): find a client from one box,
 * show them at a glance with the gate's verdict at the desk's gate, check them
 * in through that gate by the gate's own decision (modules/gate: `previewEntrance`,
 * `processEntrance`, `decideIfPaid` — no second rule here), override a refusal
 * with a recorded reason, and sell an entrance through the one purchase path
 * (`createPurchase`) that admits in the purchase's transaction. Money in agorot.
 */

/** What the desk's writes need beside the database: the live feed and the gates' links. */
export interface DeskLink {
  bus: EventBus;
  registry: Pick<TerminalRegistry, 'isConnected'>;
  actions: Pick<TerminalActions, 'send'>;
}

/** Refusals no one may override: no approved gate to open, nobody to admit, the client was admitted a moment ago. */
const NOT_OVERRIDABLE: readonly number[] = [Reason.TerminalNotApproved, Reason.ClientNotFound, Reason.DoubleEntry];

/** Whether staff with roleOverrideEntrance may admit despite this decision (docs/front-desk.md "The override rule"). */
export function overridable(d: Pick<Decision, 'status' | 'reason'>): boolean {
  return d.status !== EntranceStatus.Approved && !NOT_OVERRIDABLE.includes(d.reason);
}

const deskDecision = (d: Pick<Decision, 'status' | 'reason' | 'paymentType' | 'amount'>): DeskDecision => ({
  status: d.status,
  reason: d.reason,
  approved: d.status === EntranceStatus.Approved,
  paymentType: d.paymentType,
  amount: d.amount,
});

/** The desk's identification of a client (kind `desk`, the client id). */
const deskIdent = (clientId: number) => ({ kind: 'desk' as const, value: String(clientId) });

/** A retry's entrance event id: one per idempotency key, on the chosen terminal. */
const eventIdOf = (key: string) => `desk:${key}`;

/** GET /api/FrontDesk/Gates: the club's live terminals, main first, then by name, with their link state. */
export async function deskGates(
  db: Db,
  clubId: number,
  registry: Pick<TerminalRegistry, 'isConnected'>,
): Promise<FrontDeskGate[]> {
  const rows = await db
    .select()
    .from(terminals)
    .where(scoped(db, clubId).live(terminals))
    .orderBy(desc(terminals.isMain), asc(terminals.name), asc(terminals.id));
  return rows.map((t) => ({
    id: t.id,
    name: t.name,
    isMain: t.isMain,
    approved: t.approved,
    connected: isTerminalConnected(t, registry),
    doorState: t.doorState,
  }));
}

const matchColumns = {
  id: clients.id,
  number: clients.number,
  firstName: clients.firstName,
  lastName: clients.lastName,
  phone: clients.phone,
  personalId: clients.personalId,
  groupName: groups.name,
  status: clients.status,
  subscriptionEnd: clients.subscriptionEnd,
};

/** The club's live clients meeting `cond`, by name, at most FRONT_DESK_MAX_MATCHES (+1 to tell there are more). */
function matches(db: Db, clubId: number, cond: SQL | undefined) {
  return db
    .select(matchColumns)
    .from(clients)
    .leftJoin(groups, and(eq(groups.id, clients.groupId), eq(groups.clubId, clients.clubId)))
    .where(scoped(db, clubId).where(clients, ne(clients.status, ClientStatus.Deleted), cond))
    .orderBy(asc(clients.lastName), asc(clients.firstName), asc(clients.number))
    .limit(FRONT_DESK_MAX_MATCHES + 1);
}

/**
 * GET /api/FrontDesk/Find?q=: the clients the one box names (deleted clients never), tried in
 * this order, the first that finds anyone answers:
 *
 * 1. `card` — the exact card serial: what a keyboard-wedge reader types on a swipe;
 * 2. `code` — the exact client code, or the member number (1–9 digits);
 * 3. `search` — the client list's search (`searchCondition`: every word in names, ID, card and
 *    phone; digits also as the phone without its trunk zero, 050-… finds +97250…).
 *
 * At most FRONT_DESK_MAX_MATCHES, by last and first name; `more` when there are others.
 */
export async function findClients(db: Db, clubId: number, q: string): Promise<FrontDeskFindResult> {
  const term = q.trim();
  const answer = (by: FrontDeskFindResult['by'], rows: Awaited<ReturnType<typeof matches>>) => ({
    by,
    items: rows.slice(0, FRONT_DESK_MAX_MATCHES),
    more: rows.length > FRONT_DESK_MAX_MATCHES,
  });
  const byCard = await matches(db, clubId, and(eq(clients.cardSerial, term), ne(clients.cardSerial, '')));
  if (byCard.length > 0) return answer('card', byCard);
  const byNumber = /^\d{1,9}$/.test(term) ? eq(clients.number, Number(term)) : undefined;
  const byCode = await matches(db, clubId, or(and(eq(clients.clientCode, term), ne(clients.clientCode, '')), byNumber));
  if (byCode.length > 0) return answer('code', byCode);
  return answer('search', await matches(db, clubId, searchCondition(term)));
}

/** The club's live (not deleted) client, else 404. */
async function liveClient(db: Db, clubId: number, clientId: number) {
  const c = await scoped(db, clubId).one(clients, clientId, 'client');
  if (c.status === ClientStatus.Deleted) throw notFound('client');
  return c;
}

/** The club's live (not deleted) terminal, else 404. */
function liveTerminal(db: Db, clubId: number, terminalId: number) {
  return scoped(db, clubId).one(terminals, terminalId, 'terminal', { live: true });
}

/**
 * GET /api/FrontDesk/Client/{id}?terminalId=: the client at a glance — group, subscription (valid
 * on the club's today), balances, open debts, the last approved entrance, the message to the
 * client, whether a face image exists — and, at the given gate, the gate's verdict now
 * (`DeskVerdict`: the state in force, the decision of a presentation, the price of one entrance,
 * what selling it would do, whether a refusal may be overridden). Nothing is written.
 * @throws AppError NOT_FOUND for another club's or a deleted client, another club's terminal
 */
export async function glance(
  db: Db,
  clubId: number,
  clientId: number,
  terminalId: number | undefined,
): Promise<FrontDeskGlance> {
  const c = await liveClient(db, clubId, clientId);
  if (terminalId != null) await liveTerminal(db, clubId, terminalId);
  const s = scoped(db, clubId);
  const [group] = c.groupId
    ? await db
        .select({ id: groups.id, name: groups.name, color: groups.color })
        .from(groups)
        .where(s.where(groups, eq(groups.id, c.groupId)))
    : [];
  const [openDebts, [last], [photo], [club]] = await Promise.all([
    db
      .select({
        id: debts.id,
        amount: debts.amount,
        paid: debts.paid,
        description: debts.description,
        file: debts.masavFileId,
      })
      .from(debts)
      .where(s.live(debts, eq(debts.clientId, clientId), gt(debts.amount, debts.paid)))
      .orderBy(desc(debts.createdAt), desc(debts.id)),
    db
      .select({ at: entranceLogs.at, status: entranceLogs.status, reason: entranceLogs.reason, name: terminals.name })
      .from(entranceLogs)
      .leftJoin(terminals, and(eq(terminals.id, entranceLogs.terminalId), eq(terminals.clubId, entranceLogs.clubId)))
      .where(
        s.where(entranceLogs, eq(entranceLogs.clientId, clientId), eq(entranceLogs.status, EntranceStatus.Approved)),
      )
      .orderBy(desc(entranceLogs.at))
      .limit(1),
    db
      .select({ id: biometricTemplates.id })
      .from(biometricTemplates)
      .where(
        s.where(
          biometricTemplates,
          eq(biometricTemplates.clientId, clientId),
          eq(biometricTemplates.kind, 'face'),
          sql`${biometricTemplates.imageEnc} is not null`,
        ),
      )
      .limit(1),
    db.select({ location: clubs.location }).from(clubs).where(eq(clubs.id, clubId)),
  ]);
  const today = clubToday(club?.location ?? null, clockNow());
  const items = openDebts.map((d) => ({
    id: d.id,
    open: d.amount - d.paid,
    description: d.description,
    inCollection: d.file != null,
  }));
  return {
    client: {
      id: c.id,
      number: c.number,
      firstName: c.firstName,
      lastName: c.lastName,
      phone: c.phone,
      personalId: c.personalId,
      cardSerial: c.cardSerial,
      status: c.status,
      clientType: c.clientType,
      messageToClient: c.messageToClient,
      hasPhoto: photo != null,
    },
    group: group ?? null,
    subscription: {
      start: c.subscriptionStart,
      end: c.subscriptionEnd,
      valid: subscriptionValid(c, today),
    },
    balance: c.balance,
    tempBalance: c.tempBalance,
    bonusEntries: c.bonusEntries,
    debts: { open: items.reduce((sum, d) => sum + d.open, 0), items },
    lastEntrance: last
      ? { at: last.at.toISOString(), terminalName: last.name, status: last.status, reason: last.reason }
      : null,
    verdict: terminalId != null ? await verdict(db, clubId, clientId, terminalId) : null,
  };
}

/** The gate's verdict for the client at the terminal now (see `glance`). */
async function verdict(db: Db, clubId: number, clientId: number, terminalId: number): Promise<DeskVerdict> {
  const p = await previewEntrance(db, { clubId, terminalId, identification: deskIdent(clientId), at: clockNow() });
  const state = stateInForce(p.input);
  const sale = decideIfPaid(p.input);
  return {
    terminalId,
    terminalName: p.terminal?.name ?? '',
    state,
    open: state != null && state !== EntranceState.Closed,
    decision: deskDecision(p.decision),
    price: entrancePrice(p.input),
    sale: { outcome: sale.outcome, decision: deskDecision(sale.decision) },
    overridable: overridable(p.decision),
  };
}

/** Sends `openGate` to a gate with a live link; whether it was sent. */
function openGate(link: DeskLink, terminal: typeof terminals.$inferSelect): boolean {
  if (!isTerminalConnected(terminal, link.registry)) return false;
  link.actions.send(terminal.id, { actionName: 'openGate', data: undefined });
  return true;
}

/** The check-in already recorded for this key at this gate (a retry), or null. */
async function priorCheckIn(
  db: Db,
  clubId: number,
  terminalId: number,
  eventId: string,
): Promise<CheckInResult | null> {
  const r = await findByEvent(db, clubId, terminalId, eventId);
  if (!r) return null;
  const [o] = await db
    .select({ status: entranceOverrides.refusedStatus, reason: entranceOverrides.refusedReason })
    .from(entranceOverrides)
    .where(scoped(db, clubId).where(entranceOverrides, eq(entranceOverrides.entranceLogId, r.logId)));
  return {
    admitted: r.status === EntranceStatus.Approved,
    decision: deskDecision(r),
    entranceId: r.logId,
    overridden: o ? deskDecision({ ...o, paymentType: EntrancePaymentType.None, amount: 0 }) : null,
    gateOpened: false,
    duplicate: true,
  };
}

/** Refuses (403 NOT_AUTHORIZED) a caller without the flag, by the one access policy. */
async function requireFlag(db: Db, actor: Actor, flag: 'roleOverrideEntrance' | 'roleCheckInClients'): Promise<void> {
  if (!can(await accessContext(db, actor, false), { flag })) {
    throw new AppError('NOT_AUTHORIZED', `${flag} is required`, { permission: flag });
  }
}

/**
 * POST /api/FrontDesk/CheckIn: admits the client through the gate as a presentation would — the
 * gate's own read and decision (`processEntrance`, identification kind `desk`), recorded as an
 * entrance of that terminal whatever the outcome (a refusal too), published on the live feed,
 * audited with the user, and the gate told to open when approved and linked.
 *
 * With `override` (roleOverrideEntrance; docs/front-desk.md "The override rule"): a refusal that
 * may be overridden (`overridable`) is admitted instead — status 1, reason 29
 * EntryByStaffOverride, no money taken — with an entrance_overrides row (who, the refusal, the
 * reason) and an audit row `override`, in one transaction. A decision that approves needs no
 * override and is recorded as usual; one that may not be overridden is OVERRIDE_NOT_POSSIBLE.
 *
 * Idempotent: the key names the entrance event (`desk:<key>` on the terminal); a retry answers
 * the first outcome (`duplicate`) and neither records nor opens again.
 * @throws AppError NOT_FOUND (client deleted or of another club, terminal), NOT_AUTHORIZED
 *   (override without roleOverrideEntrance), OVERRIDE_NOT_POSSIBLE {status, reason}
 */
export async function checkIn(db: Db, link: DeskLink, actor: Actor, body: CheckInRequest): Promise<CheckInResult> {
  const { clubId } = actor;
  const eventId = eventIdOf(body.idempotencyKey);
  const prior = await priorCheckIn(db, clubId, body.terminalId, eventId);
  if (prior) return prior;
  await liveClient(db, clubId, body.clientId);
  const terminal = await liveTerminal(db, clubId, body.terminalId);
  const req = { clubId, terminalId: terminal.id, identification: deskIdent(body.clientId), at: clockNow(), eventId };
  if (body.override) {
    await requireFlag(db, actor, 'roleOverrideEntrance');
    const p = await previewEntrance(db, req);
    if (p.decision.status !== EntranceStatus.Approved) {
      if (!overridable(p.decision)) {
        throw new AppError('OVERRIDE_NOT_POSSIBLE', 'This refusal cannot be overridden', {
          status: p.decision.status,
          reason: p.decision.reason,
        });
      }
      return admitOverride(db, link, actor, { terminal, p, eventId, reason: body.override.reason });
    }
  }
  const r = await processEntrance(db, link.bus, req);
  if (r.duplicate) return (await priorCheckIn(db, clubId, terminal.id, eventId))!;
  const admitted = r.status === EntranceStatus.Approved;
  await audit(db, actor, {
    action: 'create',
    entity: 'entrance',
    entityId: r.logId,
    after: { clientId: body.clientId, terminalId: terminal.id, status: r.status, reason: r.reason, via: 'frontDesk' },
  });
  return {
    admitted,
    decision: deskDecision(r),
    entranceId: r.logId,
    overridden: null,
    gateOpened: admitted && openGate(link, terminal),
    duplicate: false,
  };
}

/** Records an overridden refusal (see `checkIn`): the approved entrance, its override row and the audit row. */
async function admitOverride(
  db: Db,
  link: DeskLink,
  actor: Actor,
  o: {
    terminal: typeof terminals.$inferSelect;
    p: Awaited<ReturnType<typeof previewEntrance>>;
    eventId: string;
    reason: string;
  },
): Promise<CheckInResult> {
  const { clubId } = actor;
  const { p, terminal } = o;
  const at = p.input.now;
  const refused = { status: p.decision.status, reason: p.decision.reason };
  const logId = await db.transaction(async (tx) => {
    const [log] = await tx
      .insert(entranceLogs)
      .values({
        clubId,
        terminalId: terminal.id,
        clientId: p.input.client?.id ?? null,
        groupId: p.input.client?.groupId ?? null,
        at,
        status: EntranceStatus.Approved,
        reason: Reason.EntryByStaffOverride,
        identificationKind: 'desk',
        amount: 0,
        paymentType: EntrancePaymentType.None,
        eventId: o.eventId,
      })
      .returning({ id: entranceLogs.id });
    await tx.insert(entranceOverrides).values({
      clubId,
      entranceLogId: log.id,
      userId: actor.userId,
      at,
      refusedStatus: refused.status,
      refusedReason: refused.reason,
      reason: o.reason,
    });
    await audit(tx, actor, {
      action: 'override',
      entity: 'entrance',
      entityId: log.id,
      before: refused,
      after: { clientId: p.input.client?.id, terminalId: terminal.id, reason: o.reason },
    });
    return log.id;
  });
  const row: EntranceRow = {
    ...p.row,
    id: logId,
    status: EntranceStatus.Approved,
    reason: Reason.EntryByStaffOverride,
    amount: 0,
    paymentType: EntrancePaymentType.None,
  };
  link.bus.publish('entrance', { clubId, row });
  return {
    admitted: true,
    decision: deskDecision(row),
    entranceId: logId,
    overridden: deskDecision({ ...refused, paymentType: EntrancePaymentType.None, amount: 0 }),
    gateOpened: openGate(link, terminal),
    duplicate: false,
  };
}

/** The one Entrance line of a desk sale (quantity 1), else VALIDATION_ERROR on purchaseItems. */
function entranceLine(items: SellEntranceRequest['purchaseItems']) {
  const lines = items.filter((i) => i.itemType === PurchaseItemType.Entrance);
  if (lines.length !== 1 || lines[0].quantity !== 1) {
    throw new AppError('VALIDATION_ERROR', 'Invalid input', [{ path: 'purchaseItems', message: 'oneEntrance' }]);
  }
  return lines[0];
}

/** A sale already made with this key: the purchase and the entrance it paid for. */
async function priorSale(db: Db, clubId: number, purchaseId: number): Promise<SellEntranceResult> {
  const purchase = await getPurchase(db, clubId, purchaseId);
  const [log] = await db
    .select()
    .from(entranceLogs)
    .where(scoped(db, clubId).where(entranceLogs, eq(entranceLogs.purchaseId, purchaseId)));
  return {
    purchase,
    checkIn: {
      admitted: log?.status === EntranceStatus.Approved,
      decision: log ? deskDecision(log) : deskDecision({ status: 0, reason: 0, paymentType: 0, amount: 0 }),
      entranceId: log?.id ?? 0,
      overridden: null,
      gateOpened: false,
      duplicate: true,
    },
  };
}

/**
 * POST /api/FrontDesk/SellEntrance: sells one entrance and admits through the gate
 * (docs/front-desk.md "Selling an entrance"). Before anything is charged, the gate's decision
 * for the client paying now (`decideIfPaid`) must admit: when the gate admits without a payment
 * → PAYMENT_NOT_REQUIRED, when it refuses even paid → ENTRANCE_REFUSED (both with that
 * decision's status and reason; nothing written). Then `createPurchase` (the one purchase path:
 * source console, staff prices, idempotent on the key) writes, in its own transaction, the
 * entrance (status 1, reason 7 EntryByPayment, the line's price, event `desk:<key>`); the live
 * feed hears it and the gate is told to open. Needs roleCheckInClients beside the route's
 * roleManageClientMoney; Free needs the admin flag, as at AdminPurchase.
 *
 * A retry with the key answers the first sale and its entrance (`duplicate`), charging nothing.
 * @throws AppError NOT_AUTHORIZED, NOT_FOUND, VALIDATION_ERROR (purchaseItems oneEntrance),
 *   PAYMENT_NOT_REQUIRED, ENTRANCE_REFUSED, and createPurchase's codes
 */
export async function sellEntrance(
  db: Db,
  link: DeskLink,
  provider: ClearingProvider,
  actor: Actor,
  body: SellEntranceRequest,
): Promise<SellEntranceResult> {
  const { clubId } = actor;
  await requireFlag(db, actor, 'roleCheckInClients');
  assertMayGiveFree(actor, body.payments);
  const done = await purchaseIdByKey(db, clubId, body.idempotencyKey);
  if (done != null) return priorSale(db, clubId, done);
  const line = entranceLine(body.purchaseItems);
  const client = await liveClient(db, clubId, body.clientId);
  const terminal = await liveTerminal(db, clubId, body.terminalId);
  const eventId = eventIdOf(body.idempotencyKey);
  const p = await previewEntrance(db, {
    clubId,
    terminalId: terminal.id,
    identification: deskIdent(client.id),
    at: clockNow(),
    eventId,
  });
  const paid = decideIfPaid(p.input);
  if (paid.outcome !== 'admits') {
    const code = paid.outcome === 'notRequired' ? 'PAYMENT_NOT_REQUIRED' : 'ENTRANCE_REFUSED';
    throw new AppError(code, code, { status: paid.decision.status, reason: paid.decision.reason });
  }
  const at = clockNow();
  let logId = 0;
  const purchase = await createPurchase(db, provider, {
    clubId,
    clientId: client.id,
    items: body.purchaseItems,
    payments: body.payments,
    payer: 'client',
    isAdminUser: true,
    source: 'console',
    userId: actor.userId,
    idempotencyKey: body.idempotencyKey,
    at,
    actor,
    inTransaction: async (tx, made) => {
      logId = await writePaidEntrance(tx, {
        clubId,
        terminalId: terminal.id,
        clientId: client.id,
        groupId: client.groupId,
        at,
        identificationKind: 'desk',
        amount: line.quantity * line.unitPrice,
        eventId,
        purchaseId: made.id,
      });
    },
  });
  // Another request with the same key won the race: its sale and entrance are the answer.
  if (logId === 0) return priorSale(db, clubId, purchase.id);
  const row: EntranceRow = {
    ...p.row,
    id: logId,
    at: at.toISOString(),
    status: EntranceStatus.Approved,
    reason: Reason.EntryByPayment,
    amount: line.quantity * line.unitPrice,
    paymentType: EntrancePaymentType.None,
  };
  link.bus.publish('entrance', { clubId, row });
  return {
    purchase,
    checkIn: {
      admitted: true,
      decision: deskDecision(row),
      entranceId: logId,
      overridden: null,
      gateOpened: openGate(link, terminal),
      duplicate: false,
    },
  };
}
