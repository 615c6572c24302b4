import {
  ClientStatus,
  ClientType,
  EntrancePaymentType,
  EntranceState,
  EntranceStatus,
  RAPID_REENTRY_SECONDS,
  Reason,
  REASON_KEYS,
  UNLIMITED_END_YEAR,
  businessMoment,
  isoDate,
  type BusinessMoment,
} from '@venue/domain';

/**
 * The entrance decision (DESIGN §7, seed 000 §4, seed 001 §3–§4, §9): a pure
 * function of what the service read, so every rule is unit-tested without a
 * database (STYLE point 4). Money is integer minor units (agorot); dates are
 * YYYY-MM-DD in the club's time zone; instants are `Date`s.
 */

/** The terminal an identification was presented at; null when unknown. */
export interface DecisionTerminal {
  id: number;
  approved: boolean;
  /** Seconds the gate stays open on an approved entrance. */
  gateOpenSeconds: number;
}

/** The client the identification belongs to; null when none matched. */
export interface DecisionClient {
  id: number;
  /** ClientStatus: Active 1, Inactive 2, Deleted 3 (seed 001 §3). */
  status: number;
  /** ClientType: Regular 1, Manager 2, Technician 3 (seed 001 §3). */
  clientType: number;
  subscriptionStart: string | null;
  /** Inclusive last day; year 2125 means unlimited (seed 001 §9). */
  subscriptionEnd: string | null;
  /** Inclusive last day of the client's license; null = no license. */
  licenseExpiry: string | null;
  /** Money balance ("beats"), minor units. */
  balance: number;
  groupId: number | null;
}

/** The client's group (seed 001 §3 "Client group"); null when the client has none. */
export interface DecisionGroup {
  id: number;
  allowEntrance: boolean;
  /** EntranceState used when no schedule row is in force. */
  entranceState: number;
  /** Minimum minutes between two approved entrances; 0 = no limit. */
  delayBetweenEntriesMinutes: number;
  /** Approved entrances per client per business day; 0 = no limit. */
  maxEntriesPerDay: number;
  /** Entrances by subscription per client per business day; 0 = no limit. */
  maxEntriesPerDayPerSubscriber: number;
}

/** The schedule row in force (see resolveScheduleRow), or null. */
export interface DecisionRow {
  id: number;
  entranceState: number;
  /** Price of one entrance, minor units. */
  price: number;
}

export interface EntranceInput {
  terminal: DecisionTerminal | null;
  client: DecisionClient | null;
  group: DecisionGroup | null;
  row: DecisionRow | null;
  now: Date;
  /** The group's business date of `now` (the day starts at the group's new-day hour), YYYY-MM-DD. */
  businessDate: string;
  /** The client's last approved entrance before `now`, or null. */
  lastApprovedAt: Date | null;
  /** The client's approved entrances in this business day: all, and those by subscription. */
  approvedToday: number;
  approvedTodayBySubscription: number;
  /** Approved entrances of the whole club in the last `loadLimit.minutes` minutes. */
  clubLoad: number;
  /** The club's load limit (seed 001 §3 club settings): N people in M minutes; 0 = off. */
  loadLimit: { people: number; minutes: number };
}

/**
 * The input for one presentation before the schedule row and the counts are
 * known (none read yet: no row, no earlier entrances, no load limit). The
 * business date follows the group's new-day hour (seed 001 §3).
 */
export function baseEntranceInput(
  p: Pick<EntranceInput, 'terminal' | 'client' | 'group'> & { now: Date; timeZone: string; newDayStartHour: number },
): EntranceInput & { businessMoment: BusinessMoment } {
  const bm = businessMoment(p.now, p.timeZone, p.newDayStartHour);
  return {
    terminal: p.terminal,
    client: p.client,
    group: p.group,
    row: null,
    now: p.now,
    businessDate: isoDate(bm.date),
    businessMoment: bm,
    lastApprovedAt: null,
    approvedToday: 0,
    approvedTodayBySubscription: 0,
    clubLoad: 0,
    loadLimit: { people: 0, minutes: 0 },
  };
}

export interface Decision {
  /** EntranceStatus (seed 000 §4). */
  status: number;
  /** Reason code 0–28 (packages/domain statuses.ts, docs/entrance-reasons.md). */
  reason: number;
  /** EntrancePaymentType of an approved entrance; None for a refusal. */
  paymentType: number;
  /** Money to take from the client's balance, minor units (0 unless paid by money). */
  amount: number;
  /** Whether the gate opens. */
  openGate: boolean;
  /** Seconds the gate stays open; 0 when it stays closed. */
  gateOpenSeconds: number;
  /** i18n key of the reason, shown by the terminal and the console. */
  messageKey: string;
}

function deny(status: number, reason: number): Decision {
  return {
    status,
    reason,
    paymentType: EntrancePaymentType.None,
    amount: 0,
    openGate: false,
    gateOpenSeconds: 0,
    messageKey: REASON_KEYS[reason],
  };
}

function approve(terminal: DecisionTerminal, reason: number, paymentType: number, amount = 0): Decision {
  return {
    status: EntranceStatus.Approved,
    reason,
    paymentType,
    amount,
    openGate: true,
    gateOpenSeconds: terminal.gateOpenSeconds,
    messageKey: REASON_KEYS[reason],
  };
}

/**
 * Whether a subscription covers a business date: start (if any) on or before
 * it and end on or after it; an end in year 2125 is unlimited (seed 001 §3, §9).
 */
export function subscriptionValid(
  c: Pick<DecisionClient, 'subscriptionStart' | 'subscriptionEnd'>,
  date: string,
): boolean {
  if (!c.subscriptionEnd) return false;
  if (c.subscriptionStart && c.subscriptionStart > date) return false;
  if (Number(c.subscriptionEnd.slice(0, 4)) >= UNLIMITED_END_YEAR) return true;
  return c.subscriptionEnd >= date;
}

/** Whether a license covers a date (seed 000 §4 status 10). No license at all is not valid. */
export function licenseValid(c: Pick<DecisionClient, 'licenseExpiry'>, date: string): boolean {
  return c.licenseExpiry != null && c.licenseExpiry >= date;
}

/** How an entrance would be paid before the quota and load checks; a Decision when refused. */
type Plan = { reason: number; paymentType: number; amount: number } | Decision;

function planByState(input: EntranceInput, client: DecisionClient, group: DecisionGroup): Plan {
  const state = input.row?.entranceState ?? group.entranceState;
  const price = Math.max(0, input.row?.price ?? 0);
  const bySubscription = subscriptionValid(client, input.businessDate);
  const subscriptionPlan = {
    reason: Reason.EntryBySubscription,
    paymentType: EntrancePaymentType.Subscription,
    amount: 0,
  };
  // Special client prices are not modelled yet: the row's price applies.
  const moneyPlan = { reason: Reason.EntryByChargedMoney, paymentType: EntrancePaymentType.Money, amount: price };
  const canPay = client.balance >= price;
  switch (state) {
    case EntranceState.FreeOpen:
      return { reason: Reason.EntryFreeOpen, paymentType: EntrancePaymentType.Free, amount: 0 };
    case EntranceState.Opened:
      if (bySubscription) return subscriptionPlan;
      if (canPay) return moneyPlan;
      if (client.subscriptionEnd != null) return deny(EntranceStatus.SubscriptionExpired, Reason.SubscriptionExpired);
      return deny(EntranceStatus.NoBalance, Reason.NoBalance);
    case EntranceState.OpenWithMoneyValueOnly:
      return canPay ? moneyPlan : deny(EntranceStatus.NoBalance, Reason.NoBalance);
    case EntranceState.OpenWithPay:
      // Payment at the terminal (card, cash) is a later issue: until then the entrance cannot be paid.
      return deny(EntranceStatus.PaymentError, Reason.PaymentError);
    case EntranceState.RestrictAccessOnly:
      return bySubscription ? subscriptionPlan : deny(EntranceStatus.ClosedToGroup, Reason.ClosedToGroup);
    case EntranceState.Closed:
    default:
      return deny(EntranceStatus.ClosedToGroup, Reason.ClosedToGroup);
  }
}

/**
 * Decides one entrance (DESIGN §7). Rules, in order; the first that refuses wins:
 *
 * 1. terminal known and approved, else 11 (seed 000 §4);
 * 2. client found and not deleted, else 8;
 * 3. client active, else 3 with reason ClientInactive;
 * 4. Manager and Technician clients enter (reason EntryByManager, seed 001 §3 client type);
 * 5. license valid on the business date, else 10;
 * 6. no approved entrance within the last 2 seconds, else 13 (seed 001 §4, §9);
 * 7. the group allows entrance and the entrance state of the schedule row in
 *    force (the group's own state when none) admits: Closed → 4; FreeOpen →
 *    free; Opened → subscription, else money (balance ≥ the row's price),
 *    else 2 when the client had a subscription, else 5; OpenWithMoneyValueOnly
 *    → money, else 5; OpenWithPay → 9 (terminal payment not yet built);
 *    RestrictAccessOnly → subscription, else 4. A client without a group → 4;
 * 8. delay between entries (7, TooLittleTimeBetweenEntries) and daily quotas
 *    (6, EntryQuotaExceeded; the per-subscriber quota counts entrances by subscription);
 * 9. the club's load limit of N people in M minutes, else 12;
 * 10. approve (1): `amount` is what the caller takes from the balance.
 */
export function decideEntrance(input: EntranceInput): Decision {
  const { terminal, client, group } = input;
  if (!terminal || !terminal.approved) return deny(EntranceStatus.TerminalNotApproved, Reason.TerminalNotApproved);
  if (!client || client.status === ClientStatus.Deleted) {
    return deny(EntranceStatus.CustomerNotFound, Reason.ClientNotFound);
  }
  if (client.status !== ClientStatus.Active) return deny(EntranceStatus.GeneralError, Reason.ClientInactive);
  if (client.clientType === ClientType.Manager || client.clientType === ClientType.Technician) {
    return approve(terminal, Reason.EntryByManager, EntrancePaymentType.Manager);
  }
  if (!licenseValid(client, input.businessDate)) return deny(EntranceStatus.LicenseExpired, Reason.LicenseExpired);
  const sinceLastMs = input.lastApprovedAt ? input.now.getTime() - input.lastApprovedAt.getTime() : Infinity;
  if (sinceLastMs >= 0 && sinceLastMs < RAPID_REENTRY_SECONDS * 1000) {
    return deny(EntranceStatus.RapidReEntry, Reason.DoubleEntry);
  }
  if (!group || !group.allowEntrance) return deny(EntranceStatus.ClosedToGroup, Reason.ClosedToGroup);
  const plan = planByState(input, client, group);
  if ('status' in plan) return plan;

  if (group.delayBetweenEntriesMinutes > 0 && sinceLastMs < group.delayBetweenEntriesMinutes * 60_000) {
    return deny(EntranceStatus.ReEntry, Reason.TooLittleTimeBetweenEntries);
  }
  if (group.maxEntriesPerDay > 0 && input.approvedToday >= group.maxEntriesPerDay) {
    return deny(EntranceStatus.EntryQuotaUsed, Reason.EntryQuotaExceeded);
  }
  if (
    plan.paymentType === EntrancePaymentType.Subscription &&
    group.maxEntriesPerDayPerSubscriber > 0 &&
    input.approvedTodayBySubscription >= group.maxEntriesPerDayPerSubscriber
  ) {
    return deny(EntranceStatus.EntryQuotaUsed, Reason.EntryQuotaExceeded);
  }
  const { people, minutes } = input.loadLimit;
  if (people > 0 && minutes > 0 && input.clubLoad >= people) {
    return deny(EntranceStatus.GlobalEntrancesLimit, Reason.EntryLoadLimiting);
  }
  return approve(terminal, plan.reason, plan.paymentType, plan.amount);
}
