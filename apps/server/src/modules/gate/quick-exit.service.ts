import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import {
  EntrancePaymentType,
  EntranceStatus,
  QUICK_EXIT_KEYS,
  QUICK_EXIT_LOOKBACK_HOURS,
  QuickExitOutcome,
  type ClubSettings,
  type Identification,
  type ServerExitResult,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { balanceLedger, clients, clubs, entranceLogs, quickExits, terminals } from '../../db/schema.js';
import { scoped } from '../../lib/scoped.js';
import { clubSettings } from '../club/club.service.js';
import { identificationMatch } from './entrance.service.js';

/**
 * Quick exit (seed 001 §3 "Quick-exit record", quick-exit terminal flag,
 * club settings min/max time and rewards; §4 and §8 outcomes). A client who
 * leaves through a quick-exit terminal soon after entering gets part of the
 * visit back: money credited to the balance (ledger row), once per entrance.
 */

export interface ExitRequest {
  clubId: number;
  terminalId: number;
  identification: Identification;
  /** When the client left. */
  at: Date;
  eventId: string;
}

/** Facts of one entrance the rule needs. */
export interface ExitEntrance {
  paymentType: number;
  /** Money the entrance took, minor units. */
  amount: number;
  at: Date;
}

/**
 * The quick-exit rule (pure): the outcome and the reward in minor units for
 * an exit `minutes` after `entrance` with the club's settings.
 *
 * - settings not configured (quick exit disabled or max 0) → NoQuickExitConfigured;
 * - no entrance → NoEntryInRecentHours;
 * - an entrance that cost nothing (bonus, free-open, manager) → BonusEntryNotEligible;
 * - stay below the minimum → MinimumStayNotMet; above the maximum → StayExpired;
 * - by subscription → BySubscription, reward quickExitSubscriptionReward;
 * - paid by money → ByCharge, reward quickExitTransactionReward capped at what the entrance cost.
 */
export function quickExitRule(
  settings: Pick<
    ClubSettings,
    | 'isQuickExitEnabled'
    | 'quickExitMinMinutes'
    | 'quickExitMaxMinutes'
    | 'quickExitSubscriptionReward'
    | 'quickExitTransactionReward'
  >,
  entrance: ExitEntrance | null,
  minutes: number,
): { outcome: number; reward: number } {
  if (!settings.isQuickExitEnabled || settings.quickExitMaxMinutes <= 0) {
    return { outcome: QuickExitOutcome.NoQuickExitConfigured, reward: 0 };
  }
  if (!entrance) return { outcome: QuickExitOutcome.NoEntryInRecentHours, reward: 0 };
  const paid =
    entrance.paymentType === EntrancePaymentType.Subscription ||
    (entrance.paymentType === EntrancePaymentType.Money && entrance.amount > 0);
  if (!paid) return { outcome: QuickExitOutcome.BonusEntryNotEligible, reward: 0 };
  if (minutes < settings.quickExitMinMinutes) return { outcome: QuickExitOutcome.MinimumStayNotMet, reward: 0 };
  if (minutes > settings.quickExitMaxMinutes) return { outcome: QuickExitOutcome.StayExpired, reward: 0 };
  if (entrance.paymentType === EntrancePaymentType.Subscription) {
    return { outcome: QuickExitOutcome.BySubscription, reward: settings.quickExitSubscriptionReward };
  }
  return {
    outcome: QuickExitOutcome.ByCharge,
    reward: Math.min(settings.quickExitTransactionReward, entrance.amount),
  };
}

/** Outcomes that are written as a quick-exit record (they concern one entrance). */
const RECORDED = new Set<number>([
  QuickExitOutcome.BySubscription,
  QuickExitOutcome.ByCharge,
  QuickExitOutcome.BonusEntryNotEligible,
  QuickExitOutcome.MinimumStayNotMet,
  QuickExitOutcome.StayExpired,
]);

/**
 * Handles an `exit` at a terminal: the terminal must be flagged quick exit
 * (terminals.settings.quickExit) in a club with quick exit enabled and a
 * max time, else NoQuickExitConfigured. The client is found by the
 * identification (else Failed) and its last approved entrance within
 * QUICK_EXIT_LOOKBACK_HOURS before `at` (else NoEntryInRecentHours) decides
 * with `quickExitRule`. One record per entrance (quick_exits, unique on the
 * entrance): a second exit answers QuickExitAlreadyRecorded. A reward is
 * credited, in the same transaction as the record, to whoever paid the
 * entrance (the parent for a child on the parent's money) with a
 * balance_ledger row (kind money, source quick_exit), whose id is the
 * record's transaction id. Idempotent on (terminal, eventId): a resend
 * answers the recorded outcome. The gate always opens: nobody is kept in.
 */
export async function processExit(db: Db, req: ExitRequest): Promise<ServerExitResult> {
  const [t] = await db
    .select({ gateOpenSeconds: terminals.gateOpenSeconds, settings: terminals.settings, club: clubs.settings })
    .from(terminals)
    .innerJoin(clubs, eq(clubs.id, terminals.clubId))
    .where(scoped(db, req.clubId).live(terminals, eq(terminals.id, req.terminalId)));
  const gateOpenSeconds = t?.gateOpenSeconds ?? 0;
  const answer = (outcome: number, reward = 0, extra: Partial<ServerExitResult> = {}): ServerExitResult => ({
    type: 'exit-result',
    eventId: req.eventId,
    outcome,
    message: QUICK_EXIT_KEYS[outcome],
    rewardAmount: reward,
    gateOpenSeconds,
    ...extra,
  });

  const [resent] = await db
    .select()
    .from(quickExits)
    .where(and(eq(quickExits.terminalId, req.terminalId), eq(quickExits.eventId, req.eventId)));
  if (resent) return answer(resent.type, resent.rewardAmount, { durationMinutes: resent.durationMinutes });

  const settings = clubSettings({ settings: t?.club ?? {} });
  const isQuickExit = t?.settings.quickExit === true;
  if (!t || !isQuickExit || !settings.isQuickExitEnabled || settings.quickExitMaxMinutes <= 0) {
    return answer(QuickExitOutcome.NoQuickExitConfigured);
  }

  const match = await identificationMatch(db, req.clubId, req.identification);
  const [c] = match
    ? await db
        .select({ id: clients.id, firstName: clients.firstName, lastName: clients.lastName })
        .from(clients)
        .where(scoped(db, req.clubId).live(clients, match))
        .orderBy(sql`(${clients.clientCode} = ${req.identification.value}) desc`)
        .limit(1)
    : [];
  if (!c) return answer(QuickExitOutcome.Failed);
  const clientName = `${c.firstName} ${c.lastName}`.trim();

  const since = new Date(req.at.getTime() - QUICK_EXIT_LOOKBACK_HOURS * 3_600_000);
  const [e] = await db
    .select({
      id: entranceLogs.id,
      at: entranceLogs.at,
      paymentType: entranceLogs.paymentType,
      amount: entranceLogs.amount,
      payerClientId: entranceLogs.payerClientId,
      recorded: quickExits.id,
    })
    .from(entranceLogs)
    .leftJoin(quickExits, eq(quickExits.entranceId, entranceLogs.id))
    .where(
      scoped(db, req.clubId).where(
        entranceLogs,
        eq(entranceLogs.clientId, c.id),
        eq(entranceLogs.status, EntranceStatus.Approved),
        gte(entranceLogs.at, since),
        lte(entranceLogs.at, req.at),
      ),
    )
    .orderBy(desc(entranceLogs.at))
    .limit(1);
  if (!e) return answer(QuickExitOutcome.NoEntryInRecentHours, 0, { clientName });
  if (e.recorded != null) return answer(QuickExitOutcome.QuickExitAlreadyRecorded, 0, { clientName });

  const durationMinutes = Math.floor((req.at.getTime() - e.at.getTime()) / 60_000);
  const { outcome, reward } = quickExitRule(settings, e, durationMinutes);
  if (!RECORDED.has(outcome)) return answer(outcome, 0, { clientName });

  const recorded = await db.transaction(async (tx) => {
    const [q] = await tx
      .insert(quickExits)
      .values({
        clubId: req.clubId,
        clientId: c.id,
        entranceId: e.id,
        terminalId: req.terminalId,
        type: outcome,
        entranceAt: e.at,
        exitAt: req.at,
        durationMinutes,
        rewardAmount: reward,
        eventId: req.eventId,
      })
      .onConflictDoNothing()
      .returning({ id: quickExits.id });
    if (!q) return false; // another exit of the same entrance (or a resend) won
    if (reward > 0) {
      const payer = e.payerClientId ?? c.id;
      await tx
        .update(clients)
        .set({ balance: sql`${clients.balance} + ${reward}` })
        .where(eq(clients.id, payer));
      const [l] = await tx
        .insert(balanceLedger)
        .values({
          clubId: req.clubId,
          clientId: payer,
          kind: 'money',
          delta: reward,
          source: 'quick_exit',
          sourceId: q.id,
          at: req.at,
        })
        .returning({ id: balanceLedger.id });
      await tx.update(quickExits).set({ transactionId: l.id }).where(eq(quickExits.id, q.id));
    }
    return true;
  });
  if (!recorded) {
    const [again] = await db
      .select()
      .from(quickExits)
      .where(and(eq(quickExits.terminalId, req.terminalId), eq(quickExits.eventId, req.eventId)));
    if (again) return answer(again.type, again.rewardAmount, { durationMinutes: again.durationMinutes, clientName });
    return answer(QuickExitOutcome.QuickExitAlreadyRecorded, 0, { clientName });
  }
  return answer(outcome, reward, { durationMinutes, clientName });
}
