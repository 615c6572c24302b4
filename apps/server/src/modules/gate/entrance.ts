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
  type BookingGateVerdict,
  type BusinessMoment,
  type SafetyMode,
  ANTI_PASSBACK,
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
  /**
   * The terminal's own door state (EntranceState, terminals.door_state),
   * combined with the group's state by `combineStates`; Opened leaves the
   * decision to the group.
   */
  doorState: number;
}

/** The parent client a child may enter on (seed 001 §3 "children"): subscription and money. */
export interface DecisionPayer {
  id: number;
  status: number;
  subscriptionStart: string | null;
  subscriptionEnd: string | null;
  /** Money balance, minor units. */
  balance: number;
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
  /** Bonus entrances left (count; clients.bonus_entries). */
  bonusEntries: number;
  /** The client's own price for an entrance (minor units) instead of the row's; null = the row's price. */
  specialPrice: number | null;
  /** The parent who pays for this child when the child cannot (active, not deleted), or null. */
  parent: DecisionPayer | null;
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
  /**
   * Approved entrances of this business day on the parent's subscription
   * (the parent's own and every child's): the per-subscriber quota of an
   * entrance on the parent's subscription.
   */
  parentSubscriptionUsesToday: number;
  /** Approved entrances of the whole club in the last `loadLimit.minutes` minutes. */
  clubLoad: number;
  /** The club's load limit (seed 001 §3 club settings): N people in M minutes; 0 = off. */
  loadLimit: { people: number; minutes: number };
  /**
   * The club's emergency state (issue 36, docs/gate-safety.md), from memory: the mode the gates act
   * on (open-all wins over lockdown) and whether the client passes a lockdown (a lockdown override).
   */
  safety: { mode: SafetyMode; override: boolean };
  /**
   * The area the terminal leads into, from memory (issue 36, docs/gate-safety.md "Occupancy"), or
   * null when the terminal is in no area.
   */
  area: AreaState | null;
  /**
   * Immersion appointments (docs/appointments.md "At the gate"): null when the client's group does not
   * require a booking; else whether now is within the window around one of her bookings.
   */
  booking?: BookingGateVerdict | null;
  /**
   * A one-time booking code presented (docs/appointments.md "The one-time code") that does not admit:
   * unknown, already used, or outside its window. Absent for every other identification.
   */
  bookingCode?: 'unknown' | 'used' | 'expired' | null;
}

/** The terminal's area as the decision needs it (modules/gate/occupancy.ts `areaState`). */
export interface AreaState {
  id: number;
  /** People inside at most; 0 = no limit. */
  capacity: number;
  /** People inside now. */
  inside: number;
  /** ANTI_PASSBACK: 0 off, 1 soft, 2 hard. */
  antiPassback: number;
  /** The client is inside this area now (entered, not exited): entering again does not add one. */
  insideHere: boolean;
  /** Anti-passback applies: inside here, within the area's timed reset. */
  passbackActive: boolean;
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
    parentSubscriptionUsesToday: 0,
    clubLoad: 0,
    loadLimit: { people: 0, minutes: 0 },
    safety: { mode: 'normal', override: false },
    area: null,
  };
}

export interface Decision {
  /** EntranceStatus (seed 000 §4). */
  status: number;
  /** Reason code 0–28 (packages/domain statuses.ts, docs/entrance-reasons.md). */
  reason: number;
  /** EntrancePaymentType of an approved entrance; None for a refusal. */
  paymentType: number;
  /** Money to take from the payer's balance, minor units (0 unless paid by money). */
  amount: number;
  /** Who pays when not the client: the parent (reasons EntryByParentSubscription, EntryByParentMoney); else null. */
  payerClientId: number | null;
  /** Bonus entrances to take from the client (1 for EntryByBonus, else 0). */
  bonusUsed: number;
  /** Whether the gate opens. */
  openGate: boolean;
  /** Seconds the gate stays open; 0 when it stays closed. */
  gateOpenSeconds: number;
  /** i18n key of the reason, shown by the terminal and the console. */
  messageKey: string;
  /**
   * OpenWithPay (status 9 reason 27): the price the terminal may sell the entrance for (minor units;
   * a `purchase` with an Entrance item then admits with reason 7). Absent otherwise.
   */
  paymentRequired?: number;
  /** Admitted by soft anti-passback although inside the area already (flagged on the stay). */
  passback?: true;
}

function deny(status: number, reason: number): Decision {
  return {
    status,
    reason,
    paymentType: EntrancePaymentType.None,
    amount: 0,
    payerClientId: null,
    bonusUsed: 0,
    openGate: false,
    gateOpenSeconds: 0,
    messageKey: REASON_KEYS[reason],
  };
}

function approve(
  terminal: DecisionTerminal,
  reason: number,
  paymentType: number,
  amount = 0,
  payerClientId: number | null = null,
): Decision {
  return {
    status: EntranceStatus.Approved,
    reason,
    paymentType,
    amount,
    payerClientId,
    bonusUsed: reason === Reason.EntryByBonus ? 1 : 0,
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

/**
 * The entrance state in force when the terminal's door state and the
 * group's state (schedule row in force, else the group's own) meet
 * (docs/entrance-reasons.md "Terminal door state"):
 *
 * - door Opened: the group's state decides;
 * - door Closed: Closed; door FreeOpen: FreeOpen (handled before the group, see decideEntrance);
 * - door OpenWithMoneyValueOnly, OpenWithPay or RestrictAccessOnly: a group
 *   that is Closed stays Closed; a group that is Opened or FreeOpen takes the
 *   door's restriction; a group with the same restriction keeps it; two
 *   different restrictions admit nobody (Closed).
 */
export function combineStates(doorState: number, groupState: number): number {
  if (doorState === EntranceState.Opened) return groupState;
  if (doorState === EntranceState.Closed || doorState === EntranceState.FreeOpen) return doorState;
  if (groupState === EntranceState.Opened || groupState === EntranceState.FreeOpen) return doorState;
  if (groupState === doorState) return doorState;
  return EntranceState.Closed;
}

/** How an entrance would be paid before the quota and load checks; a Decision when refused. */
type Plan = { reason: number; paymentType: number; amount: number; payerClientId: number | null } | Decision;

/**
 * The entrance state in force for the client's group at the terminal (seed 001 §3): the schedule
 * row in force, else the group's own state, narrowed by the terminal's door (`combineStates`).
 * A group that does not allow entrance is Closed; null without a group. What the front desk shows
 * as "open now" (docs/front-desk.md) — the same state `decideEntrance` decides by.
 */
export function stateInForce(input: Pick<EntranceInput, 'terminal' | 'group' | 'row'>): number | null {
  const { group } = input;
  if (!group) return null;
  if (!group.allowEntrance) return EntranceState.Closed;
  return combineStates(
    input.terminal?.doorState ?? EntranceState.Opened,
    input.row?.entranceState ?? group.entranceState,
  );
}

/** The price of one entrance (minor units): the client's special price, else the schedule row's, else 0 (seed 001 §3). */
export function entrancePrice(input: Pick<EntranceInput, 'client' | 'row'>): number {
  return Math.max(0, input.client?.specialPrice ?? input.row?.price ?? 0);
}

function planByState(input: EntranceInput, client: DecisionClient): Plan {
  const state = stateInForce(input) ?? EntranceState.Closed;
  const price = entrancePrice(input);
  const parent = client.parent && client.parent.status === ClientStatus.Active ? client.parent : null;
  const own = (reason: number, paymentType: number, amount = 0) => ({
    reason,
    paymentType,
    amount,
    payerClientId: null,
  });
  const bySubscription = subscriptionValid(client, input.businessDate)
    ? own(Reason.EntryBySubscription, EntrancePaymentType.Subscription)
    : parent && subscriptionValid(parent, input.businessDate)
      ? {
          reason: Reason.EntryByParentSubscription,
          paymentType: EntrancePaymentType.Subscription,
          amount: 0,
          payerClientId: parent.id,
        }
      : null;
  // Money value, cheapest for the client first: a bonus entrance, the own balance, the parent's balance.
  const byMoney =
    client.bonusEntries > 0 && price > 0
      ? own(Reason.EntryByBonus, EntrancePaymentType.Bonus)
      : client.balance >= price
        ? own(Reason.EntryByChargedMoney, EntrancePaymentType.Money, price)
        : parent && parent.balance >= price
          ? {
              reason: Reason.EntryByParentMoney,
              paymentType: EntrancePaymentType.Money,
              amount: price,
              payerClientId: parent.id,
            }
          : null;
  switch (state) {
    case EntranceState.FreeOpen:
      return own(Reason.EntryFreeOpen, EntrancePaymentType.Free);
    case EntranceState.Opened:
      if (bySubscription) return bySubscription;
      if (byMoney) return byMoney;
      if (client.subscriptionEnd != null) return deny(EntranceStatus.SubscriptionExpired, Reason.SubscriptionExpired);
      return deny(EntranceStatus.NoBalance, Reason.NoBalance);
    case EntranceState.OpenWithMoneyValueOnly:
      return byMoney ?? deny(EntranceStatus.NoBalance, Reason.NoBalance);
    case EntranceState.OpenWithPay:
      // Paid at the terminal (docs/terminal-protocol.md "Paying at the gate"): the refusal offers the
      // price; a `purchase` with an Entrance item admits with reason 7. Nothing to sell at price 0.
      return price > 0
        ? { ...deny(EntranceStatus.PaymentError, Reason.PaymentError), paymentRequired: price }
        : deny(EntranceStatus.PaymentError, Reason.PaymentError);
    case EntranceState.RestrictAccessOnly:
      // Only subscription holders (own or the parent's); Manager and Technician clients were admitted before.
      return bySubscription ?? deny(EntranceStatus.ClosedToGroup, Reason.ClosedToGroup);
    case EntranceState.Closed:
    default:
      return deny(EntranceStatus.ClosedToGroup, Reason.ClosedToGroup);
  }
}

/**
 * Decides one entrance (DESIGN §7). Rules, in order; the first that refuses wins:
 *
 * 1. terminal known and approved, else 11 (seed 000 §4);
 *    then the club's emergency (issue 36, docs/gate-safety.md): open-all admits every
 *    presentation, known client or not, free (reason EntryEmergencyOpen) — it wins over a
 *    lockdown; a lockdown refuses everyone (status 14, reason Lockdown) but an active client with
 *    a lockdown override, admitted free (reason EntryLockdownOverride, payment type Manager);
 * 1a. a one-time booking code that does not admit (input.bookingCode): unknown → 8 reason
 *    BookingCodeUnknown, spent → 4 BookingCodeUsed, outside its window → 4 BookingCodeExpired;
 * 2. client found and not deleted, else 8;
 * 3. client active, else 3 with reason ClientInactive;
 * 4. Manager and Technician clients enter (reason EntryByManager, seed 001 §3 client type);
 *    then the terminal's door: Closed → 4; FreeOpen → approve free (reason EntryFreeOpen);
 * 5. license valid on the business date, else 10;
 * 6. no approved entrance within the last 2 seconds, else 13 (seed 001 §4, §9);
 * 6a. once the group allows entrance (below): a group that requires a booking (docs/appointments.md
 *    "At the gate") admits only within the window around one of the client's bookings, else 4 with
 *    reason NoBooking or OutsideBookingWindow;
 * 7. the group allows entrance and the entrance state of the schedule row in
 *    force (the group's own state when none) admits: Closed → 4; FreeOpen →
 *    free; Opened → subscription (own, else the parent's), else money value
 *    (a bonus entrance, else the own balance ≥ the price, else the parent's
 *    balance), else 2 when the client had a subscription, else 5;
 *    OpenWithMoneyValueOnly → money value, else 5; OpenWithPay → 9 (paid in a
 *    cash session, not by an entrance request); RestrictAccessOnly →
 *    subscription (own or parent's), else 4. The terminal's door state
 *    restricts further (`combineStates`). A client without a group → 4;
 * 8. delay between entries (7, TooLittleTimeBetweenEntries) and daily quotas
 *    (6, EntryQuotaExceeded; the per-subscriber quota counts entrances on the
 *    subscription used: the client's own, or the parent's including every child);
 * 9. the club's load limit of N people in M minutes, else 12;
 * 10. approve (1): `amount` is what the caller takes from the balance of
 *    `payerClientId ?? client.id`; `bonusUsed` what it takes from the bonus entrances;
 * 11. then the terminal's area (issue 36, docs/gate-safety.md "Occupancy"), on an approval other
 *    than an emergency's or staff's: hard anti-passback while inside (within the timed reset) → 16
 *    (AntiPassback); the area at its capacity, the client not inside it already → 15 (AreaFull);
 *    soft anti-passback admits with `passback` set.
 */
export function decideEntrance(input: EntranceInput): Decision {
  const d = decideBase(input);
  const area = input.area;
  // The area's rules (issue 36, docs/gate-safety.md "Occupancy"), on what would be admitted; not on
  // an emergency's admissions nor on staff (Manager, Technician: the lifeguard enters a full pool).
  if (!area || d.status !== EntranceStatus.Approved || AREA_EXEMPT.has(d.reason)) return d;
  if (area.passbackActive && area.antiPassback === ANTI_PASSBACK.Hard) {
    return deny(EntranceStatus.AntiPassback, Reason.AntiPassback);
  }
  if (!area.insideHere && area.capacity > 0 && area.inside >= area.capacity) {
    return deny(EntranceStatus.AreaFull, Reason.AreaFull);
  }
  return area.passbackActive ? { ...d, passback: true } : d;
}

/** Admissions the area's capacity and anti-passback never refuse. */
const AREA_EXEMPT: ReadonlySet<number> = new Set([
  Reason.EntryEmergencyOpen,
  Reason.EntryLockdownOverride,
  Reason.EntryByManager,
]);

/** `decideEntrance` before the area's rules (rules 1–10 above). */
function decideBase(input: EntranceInput): Decision {
  const { terminal, client, group } = input;
  if (!terminal || !terminal.approved) return deny(EntranceStatus.TerminalNotApproved, Reason.TerminalNotApproved);
  const { mode } = input.safety;
  if (mode === 'openAll') return approve(terminal, Reason.EntryEmergencyOpen, EntrancePaymentType.Free);
  if (mode === 'lockdown') {
    const staff = client != null && client.status === ClientStatus.Active && input.safety.override;
    return staff
      ? approve(terminal, Reason.EntryLockdownOverride, EntrancePaymentType.Manager)
      : deny(EntranceStatus.Lockdown, Reason.Lockdown);
  }
  if (input.bookingCode === 'unknown') return deny(EntranceStatus.CustomerNotFound, Reason.BookingCodeUnknown);
  if (input.bookingCode === 'used') return deny(EntranceStatus.ClosedToGroup, Reason.BookingCodeUsed);
  if (input.bookingCode === 'expired') return deny(EntranceStatus.ClosedToGroup, Reason.BookingCodeExpired);
  if (!client || client.status === ClientStatus.Deleted) {
    return deny(EntranceStatus.CustomerNotFound, Reason.ClientNotFound);
  }
  if (client.status !== ClientStatus.Active) return deny(EntranceStatus.GeneralError, Reason.ClientInactive);
  if (client.clientType === ClientType.Manager || client.clientType === ClientType.Technician) {
    return approve(terminal, Reason.EntryByManager, EntrancePaymentType.Manager);
  }
  // The terminal's own door: Closed admits only the staff above; FreeOpen lets every active client through.
  if (terminal.doorState === EntranceState.Closed) return deny(EntranceStatus.ClosedToGroup, Reason.ClosedToGroup);
  if (terminal.doorState === EntranceState.FreeOpen) {
    return approve(terminal, Reason.EntryFreeOpen, EntrancePaymentType.Free);
  }
  if (!licenseValid(client, input.businessDate)) return deny(EntranceStatus.LicenseExpired, Reason.LicenseExpired);
  const sinceLastMs = input.lastApprovedAt ? input.now.getTime() - input.lastApprovedAt.getTime() : Infinity;
  if (sinceLastMs >= 0 && sinceLastMs < RAPID_REENTRY_SECONDS * 1000) {
    return deny(EntranceStatus.RapidReEntry, Reason.DoubleEntry);
  }
  if (!group || !group.allowEntrance) return deny(EntranceStatus.ClosedToGroup, Reason.ClosedToGroup);
  if (input.booking != null && input.booking !== 'inWindow') {
    const reason = input.booking === 'noBooking' ? Reason.NoBooking : Reason.OutsideBookingWindow;
    return deny(EntranceStatus.ClosedToGroup, reason);
  }
  const plan = planByState(input, client);
  if ('status' in plan) return plan;

  if (group.delayBetweenEntriesMinutes > 0 && sinceLastMs < group.delayBetweenEntriesMinutes * 60_000) {
    return deny(EntranceStatus.ReEntry, Reason.TooLittleTimeBetweenEntries);
  }
  if (group.maxEntriesPerDay > 0 && input.approvedToday >= group.maxEntriesPerDay) {
    return deny(EntranceStatus.EntryQuotaUsed, Reason.EntryQuotaExceeded);
  }
  const subscriberUses =
    plan.reason === Reason.EntryByParentSubscription
      ? input.parentSubscriptionUsesToday
      : input.approvedTodayBySubscription;
  if (
    plan.paymentType === EntrancePaymentType.Subscription &&
    group.maxEntriesPerDayPerSubscriber > 0 &&
    subscriberUses >= group.maxEntriesPerDayPerSubscriber
  ) {
    return deny(EntranceStatus.EntryQuotaUsed, Reason.EntryQuotaExceeded);
  }
  const { people, minutes } = input.loadLimit;
  if (people > 0 && minutes > 0 && input.clubLoad >= people) {
    return deny(EntranceStatus.GlobalEntrancesLimit, Reason.EntryLoadLimiting);
  }
  return approve(terminal, plan.reason, plan.paymentType, plan.amount, plan.payerClientId);
}

/**
 * What the gate decides when the client pays for this one entrance now (the front desk's sale,
 * docs/front-desk.md "Selling an entrance"): the same `decideEntrance` for a client whose only
 * means is the entrance's price in hand — no subscription of its own or the parent's, no bonus,
 * no parent's money, a balance of exactly `entrancePrice`. Returns:
 *
 * - `notRequired` with the decision as it is, when the gate admits already (subscription,
 *   balance, bonus, free entry, staff);
 * - `admits` when the paid entrance is approved (the money plan: every quota, delay and load
 *   check ran), or when the gate asks for a payment at the terminal (OpenWithPay: status 9 with
 *   `paymentRequired`, as paying at the gate);
 * - `refused` with the refusal the gate gives even then (ClosedToGroup, a quota, the license…).
 */
export function decideIfPaid(input: EntranceInput): {
  outcome: 'notRequired' | 'admits' | 'refused';
  decision: Decision;
} {
  const now = decideEntrance(input);
  if (now.status === EntranceStatus.Approved) return { outcome: 'notRequired', decision: now };
  if (now.paymentRequired != null) return { outcome: 'admits', decision: now };
  const client = input.client;
  if (!client) return { outcome: 'refused', decision: now };
  const paying: DecisionClient = {
    ...client,
    subscriptionStart: null,
    subscriptionEnd: null,
    bonusEntries: 0,
    balance: entrancePrice(input),
    parent: null,
  };
  const paid = decideEntrance({ ...input, client: paying });
  if (paid.status === EntranceStatus.Approved || paid.paymentRequired != null)
    return { outcome: 'admits', decision: paid };
  return { outcome: 'refused', decision: paid };
}
