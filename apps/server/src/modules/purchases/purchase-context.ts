import { eq, inArray } from 'drizzle-orm';
import {
  checkPurchase,
  PurchaseItemType,
  vatRateBasisPoints,
  type CheckedPurchase,
  type CheckProduct,
  type ClubSettings,
  type PaymentInput,
  type PurchaseItemInput,
} from '@venue/domain';
import type { Actor } from '../../lib/actor.js';
import type { Db, Tx } from '../../db/index.js';
import { clients, clubs, groups, paymentMethods, products } from '../../db/schema.js';
import { scoped } from '../../lib/scoped.js';
import { AppError, notFound } from '../../lib/errors.js';
import { clubSettings, clubToday } from '../club/club.service.js';
import { clockNow } from '../../lib/clock.js';

/**
 * The first two steps of a purchase: read what it needs (club, client and
 * group, products, the payer's stored payment method) and check it with the
 * pure `checkPurchase` of packages/domain. Nothing is written or charged here.
 */

export interface PurchaseCommand {
  clubId: number;
  /** The client buying; null for an anonymous kiosk purchase (cash/card only, no balance items). */
  clientId: number | null;
  items: PurchaseItemInput[];
  payments: PaymentInput[];
  payer?: 'client' | 'parent' | 'manager';
  /** A staff user at the console (seed 000 §3 IsAdminUser): may give Free and set prices. */
  isAdminUser: boolean;
  /**
   * Where the purchase comes from; 'payoutError' is the change a terminal could not pay out,
   * loaded onto the client's balance (docs/cash.md "Payout errors": no group bonus).
   */
  source: 'console' | 'terminal' | 'autorenew' | 'license' | 'payoutError' | 'member';
  /**
   * A card the payer typed on the clearing provider's hosted payment page (the member app,
   * docs/members.md "Paying"): the provider's token, never the number. A CreditCardToken
   * payment charges it instead of the payer's stored card.
   */
  hostedCard?: { token: string; lastFour: string; brand: string };
  userId?: number | null;
  terminalId?: number | null;
  /** Required: a retry with the same key answers the first purchase and charges nothing again. */
  idempotencyKey: string;
  /** When the purchase happens (default now): the tax event, so it picks the VAT rate. */
  at?: Date;
  /** Staff request, for the audit row. */
  actor?: Actor;
  /**
   * Runs inside the purchase's transaction after its rows are written, so both commit or neither:
   * the gate writes the paid entrance's log row (OpenWithPay), a terminal's cash session is
   * completed. Throwing rolls the purchase back (a charged card is refunded).
   */
  inTransaction?: (tx: Tx, purchase: { id: number; invoiceNumber: number | null; total: number }) => Promise<void>;
}

/** What a purchase reads before it charges anything. */
export interface PurchaseContext {
  /** When the purchase happens (the command's `at`, or now). */
  at: Date;
  club: typeof clubs.$inferSelect;
  settings: ClubSettings;
  /** The club's local date of `at` (YYYY-MM-DD). */
  today: string;
  vatRateBp: number;
  client: typeof clients.$inferSelect | null;
  group: typeof groups.$inferSelect | null;
  payerKind: 'client' | 'parent' | 'manager';
  /** The club's live products named by Product items, by id. */
  products: Map<number, CheckProduct>;
  /** The payer's stored payment method (token card or MASAV authorization). */
  stored: typeof paymentMethods.$inferSelect | undefined;
}

/**
 * Reads the context of a purchase command.
 * @throws AppError NOT_FOUND (club; client not of the club or deleted).
 */
export async function readPurchaseContext(db: Db, cmd: PurchaseCommand): Promise<PurchaseContext> {
  const at = cmd.at ?? clockNow();
  const [club] = await db.select().from(clubs).where(eq(clubs.id, cmd.clubId));
  if (!club) throw notFound('club');
  const settings = clubSettings(club);

  let client: typeof clients.$inferSelect | null = null;
  let group: typeof groups.$inferSelect | null = null;
  if (cmd.clientId != null) {
    const [r] = await db
      .select({ c: clients, g: groups })
      .from(clients)
      .leftJoin(groups, eq(groups.id, clients.groupId))
      .where(scoped(db, cmd.clubId).live(clients, eq(clients.id, cmd.clientId)));
    if (!r) throw notFound('client');
    client = r.c;
    group = r.g;
  }
  const payerKind = cmd.payer ?? 'client';
  const payerId = payerKind === 'parent' ? (client?.parentId ?? null) : (client?.id ?? null);
  return {
    at,
    club,
    settings,
    today: clubToday(club.location, at),
    vatRateBp: vatRateBasisPoints(settings.country, at, settings.usSalesTaxBp),
    client,
    group,
    payerKind,
    products: await readProducts(db, cmd),
    stored: payerId ? await readStoredMethod(db, cmd.clubId, payerId) : undefined,
  };
}

/** The club's products (not deleted) named by the command's Product items. */
async function readProducts(db: Db, cmd: PurchaseCommand): Promise<Map<number, CheckProduct>> {
  const ids = cmd.items
    .filter((i) => i.itemType === PurchaseItemType.Product && i.itemId != null)
    .map((i) => i.itemId!);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(products)
    .where(scoped(db, cmd.clubId).live(products, inArray(products.id, ids)));
  return new Map(rows.map((p) => [p.id, p]));
}

/** The client's stored payment method (not deleted), if any. */
async function readStoredMethod(db: Db, clubId: number, clientId: number) {
  const [stored] = await db
    .select()
    .from(paymentMethods)
    .where(scoped(db, clubId).live(paymentMethods, eq(paymentMethods.clientId, clientId)));
  return stored;
}

/**
 * Checks a command against its context with the pure rules
 * (packages/domain `checkPurchase`, seed 000 §3, seed 001 §3).
 * @throws AppError with the refusal's code, message and details.
 */
export function checkCommand(ctx: PurchaseContext, cmd: PurchaseCommand): CheckedPurchase {
  const out = checkPurchase({
    items: cmd.items,
    payments: cmd.payments,
    isAdminUser: cmd.isAdminUser,
    payer: ctx.payerKind,
    client: ctx.client && { id: ctx.client.id, parentId: ctx.client.parentId },
    group: ctx.group,
    settings: ctx.settings,
    products: ctx.products,
    // A hosted page's card stands where a stored card would.
    stored: cmd.hostedCard ? { kind: 'card', chargeLimit: 0 } : (ctx.stored ?? null),
    vatRateBp: ctx.vatRateBp,
    at: ctx.at,
    requireExplicitFree: cmd.source === 'console',
  });
  if ('refusal' in out) throw new AppError(out.refusal.code, out.refusal.message, out.refusal.details);
  return out;
}
