import { describe, expect, it } from 'vitest';
import {
  businessMoment,
  ClientStatus,
  ClientType,
  EntrancePaymentType,
  EntranceState,
  EntranceStatus,
  HalachicTime,
  hhmm,
  isoDate,
  JERUSALEM,
  Reason,
  resolveScheduleRow,
  type ScheduleRowTimes,
} from '@venue/domain';
import {
  combineStates,
  decideEntrance,
  decideIfPaid,
  entrancePrice,
  licenseValid,
  stateInForce,
  subscriptionValid,
  type DecisionPayer,
  type EntranceInput,
} from './entrance.js';

const NOW = new Date('2026-03-10T10:00:00Z'); // 12:00 in Jerusalem

function input(over: Partial<EntranceInput> = {}): EntranceInput {
  return {
    terminal: { id: 1, approved: true, gateOpenSeconds: 6, doorState: EntranceState.Opened },
    client: {
      id: 10,
      status: ClientStatus.Active,
      clientType: ClientType.Regular,
      subscriptionStart: '2026-01-01',
      subscriptionEnd: '2026-12-31',
      licenseExpiry: '2026-12-31',
      balance: 0,
      groupId: 5,
      bonusEntries: 0,
      specialPrice: null,
      parent: null,
    },
    group: {
      id: 5,
      allowEntrance: true,
      entranceState: EntranceState.Opened,
      delayBetweenEntriesMinutes: 0,
      maxEntriesPerDay: 0,
      maxEntriesPerDayPerSubscriber: 0,
    },
    row: { id: 100, entranceState: EntranceState.Opened, price: 3000 },
    now: NOW,
    businessDate: '2026-03-10',
    lastApprovedAt: null,
    approvedToday: 0,
    approvedTodayBySubscription: 0,
    parentSubscriptionUsesToday: 0,
    clubLoad: 0,
    loadLimit: { people: 0, minutes: 0 },
    safety: { mode: 'normal', override: false },
    area: null,
    ...over,
  };
}
const client = (over: Partial<NonNullable<EntranceInput['client']>>) => ({ ...input().client!, ...over });
const group = (over: Partial<NonNullable<EntranceInput['group']>>) => ({ ...input().group!, ...over });
const noSubscription = { subscriptionStart: null, subscriptionEnd: null };

describe('decideEntrance: statuses of seed 000 §4', () => {
  it('1: approves by a valid subscription and opens the gate for the terminal’s seconds', () => {
    const d = decideEntrance(input());
    expect(d).toEqual({
      status: EntranceStatus.Approved,
      reason: Reason.EntryBySubscription,
      paymentType: EntrancePaymentType.Subscription,
      amount: 0,
      payerClientId: null,
      bonusUsed: 0,
      openGate: true,
      gateOpenSeconds: 6,
      messageKey: 'EntryBySubscription',
    });
  });

  it('1: approves by charged money when there is no subscription and the balance covers the price', () => {
    const d = decideEntrance(input({ client: client({ ...noSubscription, balance: 3000 }) }));
    expect(d).toMatchObject({
      status: 1,
      reason: Reason.EntryByChargedMoney,
      paymentType: EntrancePaymentType.Money,
      amount: 3000,
    });
  });

  it('1: an unlimited subscription (year 2125) is valid', () => {
    const d = decideEntrance(
      input({
        client: client({ subscriptionEnd: '2125-01-01', licenseExpiry: '2100-01-01' }),
        businessDate: '2099-05-05',
      }),
    );
    expect(d.reason).toBe(Reason.EntryBySubscription);
  });

  it('1: FreeOpen approves without a subscription or money', () => {
    const d = decideEntrance(
      input({ client: client(noSubscription), row: { id: 1, entranceState: EntranceState.FreeOpen, price: 3000 } }),
    );
    expect(d).toMatchObject({
      status: 1,
      reason: Reason.EntryFreeOpen,
      paymentType: EntrancePaymentType.Free,
      amount: 0,
    });
  });

  it('1: Manager and Technician clients enter even without a license, subscription or open schedule', () => {
    for (const clientType of [ClientType.Manager, ClientType.Technician]) {
      const d = decideEntrance(
        input({
          client: client({ clientType, licenseExpiry: null, ...noSubscription }),
          row: { id: 1, entranceState: EntranceState.Closed, price: 0 },
        }),
      );
      expect(d).toMatchObject({
        status: 1,
        reason: Reason.EntryByManager,
        paymentType: EntrancePaymentType.Manager,
        openGate: true,
      });
    }
  });

  it('2: subscription expired and not enough money', () => {
    const d = decideEntrance(input({ client: client({ subscriptionEnd: '2026-03-09', balance: 100 }) }));
    expect(d).toMatchObject({
      status: EntranceStatus.SubscriptionExpired,
      reason: Reason.SubscriptionExpired,
      openGate: false,
      gateOpenSeconds: 0,
    });
  });

  it('2 is not given when an expired subscriber can pay: money is taken instead', () => {
    const d = decideEntrance(input({ client: client({ subscriptionEnd: '2026-03-09', balance: 5000 }) }));
    expect(d).toMatchObject({ status: 1, amount: 3000, paymentType: EntrancePaymentType.Money });
  });

  it('3: an inactive client', () => {
    const d = decideEntrance(input({ client: client({ status: ClientStatus.Inactive }) }));
    expect(d).toMatchObject({ status: EntranceStatus.GeneralError, reason: Reason.ClientInactive, openGate: false });
  });

  it('4: the schedule row in force is Closed', () => {
    const d = decideEntrance(input({ row: { id: 1, entranceState: EntranceState.Closed, price: 0 } }));
    expect(d).toMatchObject({ status: EntranceStatus.ClosedToGroup, reason: Reason.ClosedToGroup });
  });

  it('4: the group does not allow entrance, or the client has no group', () => {
    expect(decideEntrance(input({ group: group({ allowEntrance: false }) })).status).toBe(4);
    expect(decideEntrance(input({ group: null })).status).toBe(4);
  });

  it('4 / 1: no row in force falls back to the group’s entrance state', () => {
    expect(decideEntrance(input({ row: null, group: group({ entranceState: EntranceState.Closed }) })).status).toBe(4);
    expect(decideEntrance(input({ row: null, group: group({ entranceState: EntranceState.Opened }) })).status).toBe(1);
  });

  it('4: RestrictAccessOnly admits subscribers only', () => {
    const row = { id: 1, entranceState: EntranceState.RestrictAccessOnly, price: 0 };
    expect(decideEntrance(input({ row })).reason).toBe(Reason.EntryBySubscription);
    expect(decideEntrance(input({ row, client: client({ ...noSubscription, balance: 99999 }) })).status).toBe(4);
  });

  it('5: no subscription ever and not enough money', () => {
    const d = decideEntrance(input({ client: client({ ...noSubscription, balance: 2999 }) }));
    expect(d).toMatchObject({ status: EntranceStatus.NoBalance, reason: Reason.NoBalance, amount: 0 });
  });

  it('5: OpenWithMoneyValueOnly ignores a valid subscription', () => {
    const row = { id: 1, entranceState: EntranceState.OpenWithMoneyValueOnly, price: 2000 };
    expect(decideEntrance(input({ row })).status).toBe(EntranceStatus.NoBalance);
    expect(decideEntrance(input({ row, client: client({ balance: 2000 }) }))).toMatchObject({
      status: 1,
      amount: 2000,
    });
  });

  it('6: the daily quota of the group is used', () => {
    const g = group({ maxEntriesPerDay: 2 });
    expect(decideEntrance(input({ group: g, approvedToday: 1 })).status).toBe(1);
    expect(decideEntrance(input({ group: g, approvedToday: 2 }))).toMatchObject({
      status: EntranceStatus.EntryQuotaUsed,
      reason: Reason.EntryQuotaExceeded,
    });
  });

  it('6: the per-subscriber quota counts entrances by subscription only', () => {
    const g = group({ maxEntriesPerDayPerSubscriber: 1 });
    expect(decideEntrance(input({ group: g, approvedToday: 3, approvedTodayBySubscription: 0 })).status).toBe(1);
    expect(decideEntrance(input({ group: g, approvedToday: 1, approvedTodayBySubscription: 1 })).status).toBe(6);
    // Paying by money is not limited by the subscriber quota.
    const payer = client({ ...noSubscription, balance: 3000 });
    expect(decideEntrance(input({ group: g, client: payer, approvedTodayBySubscription: 1 })).status).toBe(1);
  });

  it('7: too little time since the last approved entrance', () => {
    const g = group({ delayBetweenEntriesMinutes: 30 });
    const d = decideEntrance(input({ group: g, lastApprovedAt: new Date(NOW.getTime() - 29 * 60_000) }));
    expect(d).toMatchObject({ status: EntranceStatus.ReEntry, reason: Reason.TooLittleTimeBetweenEntries });
    expect(decideEntrance(input({ group: g, lastApprovedAt: new Date(NOW.getTime() - 30 * 60_000) })).status).toBe(1);
  });

  it('8: no client, or a deleted client', () => {
    expect(decideEntrance(input({ client: null }))).toMatchObject({
      status: EntranceStatus.CustomerNotFound,
      reason: Reason.ClientNotFound,
    });
    expect(decideEntrance(input({ client: client({ status: ClientStatus.Deleted }) })).status).toBe(8);
  });

  it('9: OpenWithPay needs a payment at the terminal and offers the price', () => {
    const d = decideEntrance(input({ row: { id: 1, entranceState: EntranceState.OpenWithPay, price: 3000 } }));
    expect(d).toMatchObject({
      status: EntranceStatus.PaymentError,
      reason: Reason.PaymentError,
      paymentRequired: 3000,
    });
    const free = decideEntrance(input({ row: { id: 1, entranceState: EntranceState.OpenWithPay, price: 0 } }));
    expect(free.status).toBe(EntranceStatus.PaymentError);
    expect(free.paymentRequired).toBeUndefined();
  });

  it('10: the license expired, or the client has none', () => {
    expect(decideEntrance(input({ client: client({ licenseExpiry: '2026-03-09' }) }))).toMatchObject({
      status: EntranceStatus.LicenseExpired,
      reason: Reason.LicenseExpired,
    });
    expect(decideEntrance(input({ client: client({ licenseExpiry: null }) })).status).toBe(10);
    expect(decideEntrance(input({ client: client({ licenseExpiry: '2026-03-10' }) })).status).toBe(1);
  });

  it('11: an unknown or unapproved terminal, checked before anything else', () => {
    expect(decideEntrance(input({ terminal: null, client: null }))).toMatchObject({
      status: EntranceStatus.TerminalNotApproved,
      reason: Reason.TerminalNotApproved,
      openGate: false,
    });
    expect(
      decideEntrance(input({ terminal: { id: 1, approved: false, gateOpenSeconds: 5, doorState: 2 } })).status,
    ).toBe(11);
  });

  it('12: the club load limit of N people in M minutes', () => {
    const loadLimit = { people: 20, minutes: 10 };
    expect(decideEntrance(input({ loadLimit, clubLoad: 19 })).status).toBe(1);
    expect(decideEntrance(input({ loadLimit, clubLoad: 20 }))).toMatchObject({
      status: EntranceStatus.GlobalEntrancesLimit,
      reason: Reason.EntryLoadLimiting,
    });
  });

  it('13: an approved entrance less than 2 seconds ago is a rapid re-entry', () => {
    expect(decideEntrance(input({ lastApprovedAt: new Date(NOW.getTime() - 1999) }))).toMatchObject({
      status: EntranceStatus.RapidReEntry,
      reason: Reason.DoubleEntry,
    });
    expect(decideEntrance(input({ lastApprovedAt: new Date(NOW.getTime() - 2000) })).status).toBe(1);
  });

  it('follows the order of DESIGN §7 when several rules refuse', () => {
    const bad = input({
      client: client({ licenseExpiry: '2020-01-01', ...noSubscription }),
      row: { id: 1, entranceState: EntranceState.Closed, price: 0 },
      lastApprovedAt: new Date(NOW.getTime() - 500),
      loadLimit: { people: 1, minutes: 1 },
      clubLoad: 5,
    });
    expect(decideEntrance(bad).status).toBe(10);
    expect(decideEntrance({ ...bad, client: client({ ...noSubscription }) }).status).toBe(13);
    expect(decideEntrance({ ...bad, client: client({ ...noSubscription }), lastApprovedAt: null }).status).toBe(4);
    expect(decideEntrance({ ...bad, client: client({ status: ClientStatus.Inactive }) }).status).toBe(3);
  });
});

describe('decideEntrance: the terminal door state (combineStates)', () => {
  const door = (doorState: number) => ({ id: 1, approved: true, gateOpenSeconds: 6, doorState });

  it('Closed door refuses everyone but Manager and Technician clients', () => {
    expect(decideEntrance(input({ terminal: door(EntranceState.Closed) }))).toMatchObject({
      status: EntranceStatus.ClosedToGroup,
      reason: Reason.ClosedToGroup,
    });
    const manager = client({ clientType: ClientType.Manager });
    expect(decideEntrance(input({ terminal: door(EntranceState.Closed), client: manager })).reason).toBe(
      Reason.EntryByManager,
    );
  });

  it('FreeOpen door admits every active client free, even with the group closed or no license', () => {
    const d = decideEntrance(
      input({
        terminal: door(EntranceState.FreeOpen),
        client: client({ ...noSubscription, licenseExpiry: null }),
        row: { id: 1, entranceState: EntranceState.Closed, price: 3000 },
      }),
    );
    expect(d).toMatchObject({ status: 1, reason: Reason.EntryFreeOpen, amount: 0 });
    expect(decideEntrance(input({ terminal: door(EntranceState.FreeOpen), client: null })).status).toBe(8);
    const inactive = client({ status: ClientStatus.Inactive });
    expect(decideEntrance(input({ terminal: door(EntranceState.FreeOpen), client: inactive })).status).toBe(3);
  });

  it('OpenWithMoneyValueOnly door takes money even from a subscriber; RestrictAccessOnly door only subscribers', () => {
    const money = decideEntrance(input({ terminal: door(EntranceState.OpenWithMoneyValueOnly) }));
    expect(money).toMatchObject({ status: EntranceStatus.NoBalance });
    const rich = client({ balance: 5000 });
    expect(decideEntrance(input({ terminal: door(EntranceState.OpenWithMoneyValueOnly), client: rich }))).toMatchObject(
      {
        status: 1,
        reason: Reason.EntryByChargedMoney,
        amount: 3000,
      },
    );
    const payer = client({ ...noSubscription, balance: 5000 });
    expect(decideEntrance(input({ terminal: door(EntranceState.RestrictAccessOnly), client: payer })).status).toBe(4);
    expect(decideEntrance(input({ terminal: door(EntranceState.RestrictAccessOnly) })).reason).toBe(
      Reason.EntryBySubscription,
    );
    expect(decideEntrance(input({ terminal: door(EntranceState.OpenWithPay) })).status).toBe(9);
  });

  it('combines door and group states', () => {
    const S = EntranceState;
    expect(combineStates(S.Opened, S.RestrictAccessOnly)).toBe(S.RestrictAccessOnly);
    expect(combineStates(S.OpenWithMoneyValueOnly, S.Opened)).toBe(S.OpenWithMoneyValueOnly);
    expect(combineStates(S.OpenWithMoneyValueOnly, S.FreeOpen)).toBe(S.OpenWithMoneyValueOnly);
    expect(combineStates(S.OpenWithMoneyValueOnly, S.Closed)).toBe(S.Closed);
    expect(combineStates(S.RestrictAccessOnly, S.RestrictAccessOnly)).toBe(S.RestrictAccessOnly);
    expect(combineStates(S.RestrictAccessOnly, S.OpenWithMoneyValueOnly)).toBe(S.Closed);
    expect(combineStates(S.Closed, S.FreeOpen)).toBe(S.Closed);
  });
});

describe('decideEntrance: parents, bonus entrances, special price', () => {
  const parent = (over: Partial<DecisionPayer> = {}): DecisionPayer => ({
    id: 77,
    status: ClientStatus.Active,
    subscriptionStart: '2026-01-01',
    subscriptionEnd: '2026-12-31',
    balance: 0,
    ...over,
  });

  it('a child without subscription or money enters on the parent’s subscription', () => {
    const d = decideEntrance(input({ client: client({ ...noSubscription, parent: parent() }) }));
    expect(d).toMatchObject({
      status: 1,
      reason: Reason.EntryByParentSubscription,
      paymentType: EntrancePaymentType.Subscription,
      payerClientId: 77,
      amount: 0,
    });
  });

  it('then on the parent’s money, after the child’s own money', () => {
    const p = parent({ ...noSubscription, balance: 5000 });
    expect(decideEntrance(input({ client: client({ ...noSubscription, parent: p }) }))).toMatchObject({
      status: 1,
      reason: Reason.EntryByParentMoney,
      paymentType: EntrancePaymentType.Money,
      amount: 3000,
      payerClientId: 77,
    });
    const own = decideEntrance(input({ client: client({ ...noSubscription, balance: 3000, parent: p }) }));
    expect(own).toMatchObject({ reason: Reason.EntryByChargedMoney, payerClientId: null });
  });

  it('an inactive parent, or a parent who cannot pay, does not pay', () => {
    const off = parent({ status: ClientStatus.Inactive });
    expect(decideEntrance(input({ client: client({ ...noSubscription, parent: off }) })).status).toBe(5);
    const poor = parent({ ...noSubscription, balance: 100 });
    expect(decideEntrance(input({ client: client({ ...noSubscription, parent: poor }) })).status).toBe(5);
  });

  it('the per-subscriber quota of the parent’s subscription counts the whole family', () => {
    const g = group({ maxEntriesPerDayPerSubscriber: 2 });
    const child = client({ ...noSubscription, parent: parent() });
    expect(decideEntrance(input({ group: g, client: child, parentSubscriptionUsesToday: 1 })).status).toBe(1);
    expect(decideEntrance(input({ group: g, client: child, parentSubscriptionUsesToday: 2 }))).toMatchObject({
      status: EntranceStatus.EntryQuotaUsed,
      reason: Reason.EntryQuotaExceeded,
    });
  });

  it('a bonus entrance is used before money, never before a subscription, and not where it is free', () => {
    const withBonus = client({ ...noSubscription, balance: 5000, bonusEntries: 2 });
    expect(decideEntrance(input({ client: withBonus }))).toMatchObject({
      status: 1,
      reason: Reason.EntryByBonus,
      paymentType: EntrancePaymentType.Bonus,
      amount: 0,
      bonusUsed: 1,
    });
    expect(decideEntrance(input({ client: client({ bonusEntries: 2 }) })).reason).toBe(Reason.EntryBySubscription);
    const free = { id: 1, entranceState: EntranceState.OpenWithMoneyValueOnly, price: 0 };
    expect(decideEntrance(input({ client: withBonus, row: free })).reason).toBe(Reason.EntryByChargedMoney);
    const restricted = { id: 1, entranceState: EntranceState.RestrictAccessOnly, price: 3000 };
    expect(decideEntrance(input({ client: withBonus, row: restricted })).status).toBe(4);
  });

  it('a special price replaces the row’s price', () => {
    const d = decideEntrance(input({ client: client({ ...noSubscription, balance: 1000, specialPrice: 1000 }) }));
    expect(d).toMatchObject({ status: 1, amount: 1000 });
  });
});

describe('subscription and license dates', () => {
  it('a subscription that has not started is not valid', () => {
    expect(subscriptionValid({ subscriptionStart: '2026-04-01', subscriptionEnd: '2026-05-01' }, '2026-03-31')).toBe(
      false,
    );
    expect(subscriptionValid({ subscriptionStart: '2026-04-01', subscriptionEnd: '2026-05-01' }, '2026-04-01')).toBe(
      true,
    );
    expect(subscriptionValid({ subscriptionStart: null, subscriptionEnd: '2026-05-01' }, '2026-05-01')).toBe(true);
    expect(subscriptionValid({ subscriptionStart: null, subscriptionEnd: '2026-05-01' }, '2026-05-02')).toBe(false);
  });
  it('a license is valid through its expiry day', () => {
    expect(licenseValid({ licenseExpiry: '2026-05-01' }, '2026-05-01')).toBe(true);
    expect(licenseValid({ licenseExpiry: '2026-05-01' }, '2026-05-02')).toBe(false);
  });
});

describe('decision with the schedule row in force (halachic times, Jerusalem)', () => {
  const base: Omit<ScheduleRowTimes, 'id' | 'sortOrder' | 'entranceState'> = {
    days: [0, 1, 2, 3, 4, 5, 6],
    fromTime: null,
    toTime: null,
    fromHalachic: null,
    fromOffset: 0,
    toHalachic: null,
    toOffset: 0,
    fromDate: null,
    toDate: null,
    terminalId: null,
  };
  // Women's immersion hours: from nightfall (tzeit) to 23:00.
  const rows = [
    {
      ...base,
      id: 1,
      sortOrder: 0,
      entranceState: EntranceState.Opened,
      price: 4000,
      fromHalachic: HalachicTime.Nightfall,
      toTime: hhmm('23:00'),
    },
  ];
  const at = (iso: string) => {
    const now = new Date(iso);
    const bm = businessMoment(now, JERUSALEM.timeZone, 4);
    const row = resolveScheduleRow(rows, 1, bm, JERUSALEM);
    return decideEntrance(
      input({ now, businessDate: isoDate(bm.date), row, group: group({ entranceState: EntranceState.Closed }) }),
    );
  };

  it('is closed before tzeit and open after it', () => {
    // 2026-09-06 (Sunday): tzeit ha-kochavim in Jerusalem at about 19:32 local (16:32 UTC).
    expect(at('2026-09-06T16:00:00Z').status).toBe(EntranceStatus.ClosedToGroup);
    expect(at('2026-09-06T17:00:00Z').status).toBe(EntranceStatus.Approved);
    expect(at('2026-09-06T20:30:00Z').status).toBe(EntranceStatus.ClosedToGroup); // 23:30 local
  });
});

describe('the front desk: the state in force, the price and a paid entrance (docs/front-desk.md)', () => {
  it('stateInForce: the row, else the group, narrowed by the door; Closed when the group does not allow entrance', () => {
    expect(stateInForce(input())).toBe(EntranceState.Opened);
    expect(stateInForce(input({ row: null, group: group({ entranceState: EntranceState.FreeOpen }) }))).toBe(
      EntranceState.FreeOpen,
    );
    expect(stateInForce(input({ group: group({ allowEntrance: false }) }))).toBe(EntranceState.Closed);
    const payDoor = { id: 1, approved: true, gateOpenSeconds: 6, doorState: EntranceState.OpenWithPay };
    expect(stateInForce(input({ terminal: payDoor }))).toBe(EntranceState.OpenWithPay);
    expect(stateInForce(input({ group: null }))).toBeNull();
  });

  it("entrancePrice: the client's special price, else the row's, else 0", () => {
    expect(entrancePrice(input())).toBe(3000);
    expect(entrancePrice(input({ client: client({ specialPrice: 1200 }) }))).toBe(1200);
    expect(entrancePrice(input({ row: null }))).toBe(0);
  });

  it('decideIfPaid: not required when the gate admits; admits a walk-in without money; refused when closed', () => {
    expect(decideIfPaid(input()).outcome).toBe('notRequired');
    const walkIn = input({ client: client({ ...noSubscription, balance: 500 }) });
    expect(decideEntrance(walkIn).status).toBe(EntranceStatus.NoBalance);
    expect(decideIfPaid(walkIn)).toMatchObject({
      outcome: 'admits',
      decision: { status: EntranceStatus.Approved, reason: Reason.EntryByChargedMoney, amount: 3000 },
    });
    const expired = input({ client: client({ subscriptionEnd: '2026-02-01' }) });
    expect(decideIfPaid(expired).outcome).toBe('admits');
    const closed = input({
      client: client(noSubscription),
      row: { id: 100, entranceState: EntranceState.Closed, price: 3000 },
    });
    expect(decideIfPaid(closed)).toMatchObject({ outcome: 'refused', decision: { reason: Reason.ClosedToGroup } });
  });

  it('decideIfPaid: every later check still applies (daily quota, license), and OpenWithPay admits as at the gate', () => {
    const quota = input({ client: client(noSubscription), group: group({ maxEntriesPerDay: 1 }), approvedToday: 1 });
    expect(decideIfPaid(quota)).toMatchObject({ outcome: 'refused', decision: { reason: Reason.EntryQuotaExceeded } });
    const license = input({ client: client({ ...noSubscription, licenseExpiry: '2026-01-01' }) });
    expect(decideIfPaid(license)).toMatchObject({ outcome: 'refused', decision: { reason: Reason.LicenseExpired } });
    const restricted = input({
      client: client(noSubscription),
      row: { id: 100, entranceState: EntranceState.RestrictAccessOnly, price: 3000 },
    });
    expect(decideIfPaid(restricted)).toMatchObject({ outcome: 'refused', decision: { reason: Reason.ClosedToGroup } });
    const atPay = input({ row: { id: 100, entranceState: EntranceState.OpenWithPay, price: 3000 } });
    expect(decideIfPaid(atPay)).toMatchObject({ outcome: 'admits', decision: { status: EntranceStatus.PaymentError } });
    // A parent's money or a bonus entrance would pay at the gate: nothing to sell.
    const bonus = input({ client: client({ ...noSubscription, bonusEntries: 1 }) });
    expect(decideIfPaid(bonus).outcome).toBe('notRequired');
  });
});

describe('decideEntrance: the club in an emergency (issue 36, docs/gate-safety.md)', () => {
  const lockdown = { mode: 'lockdown' as const, override: false };
  it('lockdown refuses a member with a valid subscription: status 14, reason Lockdown, the gate shut', () => {
    expect(decideEntrance(input({ safety: lockdown }))).toMatchObject({
      status: EntranceStatus.Lockdown,
      reason: Reason.Lockdown,
      openGate: false,
      gateOpenSeconds: 0,
    });
  });
  it('lockdown refuses staff (Manager) without an override, and an unknown card, with the same status', () => {
    const manager = client({ clientType: ClientType.Manager });
    expect(decideEntrance(input({ client: manager, safety: lockdown })).status).toBe(EntranceStatus.Lockdown);
    expect(decideEntrance(input({ client: null, safety: lockdown })).status).toBe(EntranceStatus.Lockdown);
  });
  it('lockdown admits an active client with a lockdown override, free, even without a subscription or group', () => {
    const d = decideEntrance(
      input({ client: client(noSubscription), group: null, safety: { mode: 'lockdown', override: true } }),
    );
    expect(d).toMatchObject({
      status: EntranceStatus.Approved,
      reason: Reason.EntryLockdownOverride,
      paymentType: EntrancePaymentType.Manager,
      amount: 0,
      openGate: true,
      gateOpenSeconds: 6,
    });
  });
  it('an inactive client with an override is still refused in lockdown', () => {
    const inactive = client({ status: ClientStatus.Inactive });
    expect(decideEntrance(input({ client: inactive, safety: { mode: 'lockdown', override: true } })).status).toBe(
      EntranceStatus.Lockdown,
    );
  });
  it('open-all admits everyone free, a closed group and an unknown card too; an unapproved terminal still refuses', () => {
    const openAll = { mode: 'openAll' as const, override: false };
    const closed = group({ allowEntrance: false });
    expect(decideEntrance(input({ group: closed, safety: openAll }))).toMatchObject({
      status: EntranceStatus.Approved,
      reason: Reason.EntryEmergencyOpen,
      paymentType: EntrancePaymentType.Free,
      amount: 0,
      openGate: true,
    });
    expect(decideEntrance(input({ client: null, safety: openAll })).reason).toBe(Reason.EntryEmergencyOpen);
    const unapproved = { id: 1, approved: false, gateOpenSeconds: 6, doorState: EntranceState.Opened };
    expect(decideEntrance(input({ terminal: unapproved, safety: openAll })).status).toBe(
      EntranceStatus.TerminalNotApproved,
    );
  });
});
