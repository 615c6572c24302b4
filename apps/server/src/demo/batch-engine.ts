import { eq, inArray, sql } from 'drizzle-orm';
import {
  localToInstant,
  EntrancePaymentType,
  EntranceStatus,
  isErevChag,
  isoDate,
  resolveScheduleRow,
  type ClubLocation,
  type Identification,
  type LocalDate,
  type ScheduleRowTimes,
} from '@venue/domain';
import type { Db, Tx } from '../db/index.js';
import { queryRows } from '../db/query.js';
import {
  balanceLedger,
  clients,
  clubs,
  entranceLogs,
  groups,
  scheduleToGroup,
  schedules,
  terminals,
} from '../db/schema.js';
import { scoped } from '../lib/scoped.js';
import { clubLocation, clubSettings } from '../modules/club/club.service.js';
import {
  baseEntranceInput,
  decideEntrance,
  type DecisionClient,
  type DecisionGroup,
} from '../modules/gate/entrance.js';

/**
 * The entrance engine for bulk history (the demo club's year of entrances).
 *
 * `processEntrance` (modules/gate/entrance.service.ts) reads the terminal, the
 * client, the schedule and the recent entrances from the database and writes
 * one transaction per entrance: about ten statements, some 8–10 ms each on
 * PGlite, far too slow for tens of thousands of entrances at first start.
 *
 * This class makes the same decision with the same pure functions
 * (`decideEntrance` of the engine, `businessMoment` and `resolveScheduleRow`
 * of the domain) from the same inputs, read once into memory and kept up to
 * date as it decides (last approved entrance, today's counts, club load,
 * balances), and writes the log rows, balance changes and ledger rows in
 * bulk. It assumes it is the only writer of the club while it runs (first
 * start). demo.test.ts checks that it produces exactly what `processEntrance`
 * produces for the same presentations.
 */
export class BatchEntranceEngine {
  private location!: ClubLocation;
  private loadLimit = { people: 0, minutes: 0 };
  private terminals = new Map<number, { id: number; approved: boolean; gateOpenSeconds: number; doorState: number }>();
  private byCard = new Map<string, ClientState>();
  private byNumber = new Map<number, ClientState>();
  private byCode = new Map<string, ClientState>();
  private byId = new Map<number, ClientState>();
  private groups = new Map<number, GroupState>();
  /** Approved entrances of the club within the load window (instants, ms). */
  private clubApproved: number[] = [];
  private logs: (typeof entranceLogs.$inferInsert)[] = [];
  private ledger: { log: number; row: typeof balanceLedger.$inferInsert }[] = [];
  /** Balance and bonus changes queued since the last flush, per client (written as increments). */
  private touched = new Map<ClientState, { money: number; bonus: number }>();
  private erevMemo = new Map<string, boolean>();

  private constructor(private readonly clubId: number) {}

  /** Reads the club's terminals, clients, groups and schedules into memory. */
  static async load(db: Db | Tx, clubId: number): Promise<BatchEntranceEngine> {
    const e = new BatchEntranceEngine(clubId);
    const [club] = await db
      .select({ settings: clubs.settings, location: clubs.location })
      .from(clubs)
      .where(eq(clubs.id, clubId));
    e.location = clubLocation(club);
    const s = clubSettings(club);
    e.loadLimit = { people: s.entrancesLimitPeople, minutes: s.entrancesLimitMinutes };
    const scope = scoped(db, clubId);
    for (const t of await db
      .select({
        id: terminals.id,
        approved: terminals.approved,
        gateOpenSeconds: terminals.gateOpenSeconds,
        doorState: terminals.doorState,
      })
      .from(terminals)
      .where(scope.live(terminals))) {
      e.terminals.set(t.id, t);
    }
    const gs = await db.select().from(groups).where(scope.live(groups));
    const rows = await scope.list(schedules);
    const links = await scope.list(scheduleToGroup);
    for (const g of gs) {
      const linked = new Set(links.filter((l) => l.groupId === g.id).map((l) => l.scheduleId));
      e.groups.set(g.id, {
        decision: {
          id: g.id,
          allowEntrance: g.allowEntrance,
          entranceState: g.entranceState,
          delayBetweenEntriesMinutes: g.delayBetweenEntriesMinutes,
          maxEntriesPerDay: g.maxEntriesPerDay,
          maxEntriesPerDayPerSubscriber: g.maxEntriesPerDayPerSubscriber,
        },
        newDayStartHour: g.newDayStartHour,
        // As the service does: the group's own rows, and linked general rows ranked below them.
        rows: rows
          .filter((r) => r.groupId === g.id || linked.has(r.id))
          .map((r) => ({
            ...r,
            days: r.days.map(Number),
            sortOrder: r.groupId === g.id ? r.sortOrder : r.sortOrder - 1_000_000,
          })),
      });
    }
    const cs = await db.select().from(clients).where(scope.live(clients));
    for (const c of cs) {
      const st: ClientState = {
        decision: {
          id: c.id,
          status: c.status,
          clientType: c.clientType,
          subscriptionStart: c.subscriptionStart,
          subscriptionEnd: c.subscriptionEnd,
          licenseExpiry: c.licenseExpiry,
          balance: c.balance,
          groupId: c.groupId,
          bonusEntries: c.bonusEntries,
          specialPrice: c.specialPrice,
          parent: null,
        },
        parentId: c.parentId,
        approved: [],
        subscriptionUses: [],
      };
      if (c.cardSerial) e.byCard.set(c.cardSerial, st);
      e.byNumber.set(c.number, st);
      if (c.clientCode && !e.byCode.has(c.clientCode)) e.byCode.set(c.clientCode, st);
      e.byId.set(c.id, st);
    }
    // Parents pay for their children (seed 001 §3): the child's decision sees the parent's live state.
    for (const st of e.byId.values()) {
      const p = st.parentId != null ? e.byId.get(st.parentId) : undefined;
      if (p) st.parentState = p;
    }
    return e;
  }

  /** Mirrors a balance load written by the caller (agorot). */
  credit(clientId: number, amount: number): void {
    const st = this.byId.get(clientId);
    if (st) st.decision.balance += amount;
  }

  /** Mirrors subscription dates a purchase or a renewal wrote for the client (YYYY-MM-DD or null). */
  setSubscription(clientId: number, start: string | null, end: string | null): void {
    const st = this.byId.get(clientId);
    if (st) {
      st.decision.subscriptionStart = start;
      st.decision.subscriptionEnd = end;
    }
  }

  /**
   * Decides one presentation as `processEntrance` would and queues its
   * writes. Returns the decision's status, amount and payment type.
   */
  present(
    terminalId: number,
    identification: Identification,
    at: Date,
  ): { status: number; amount: number; paymentType: number } {
    const t = this.terminals.get(terminalId) ?? null;
    const st =
      identification.kind === 'card'
        ? this.byCard.get(identification.value)
        : identification.kind === 'code'
          ? (this.byCode.get(identification.value) ??
            (/^\d{1,9}$/.test(identification.value) ? this.byNumber.get(Number(identification.value)) : undefined))
          : undefined;
    const parentSt = st?.parentState;
    if (st) st.decision.parent = parentSt ? { ...parentSt.decision } : null;
    const client = st?.decision ?? null;
    const g = client?.groupId != null ? this.groups.get(client.groupId) : undefined;
    const group = g?.decision ?? null;
    const newDayStartHour = g?.newDayStartHour ?? 0;
    const input = baseEntranceInput({
      terminal: t,
      client,
      group,
      now: at,
      timeZone: this.location.timeZone,
      newDayStartHour,
    });
    const bm = input.businessMoment;
    const ms = at.getTime();
    if (t?.approved && st && g) {
      input.loadLimit = this.loadLimit;
      const dayStart = localToInstant(bm.date, newDayStartHour * 3600, this.location.timeZone).getTime();
      input.row = resolveScheduleRow(g.rows, terminalId, bm, this.location, (d) => this.erev(d));
      // The service looks back to the start of the business day or the group's delay (at least a minute).
      const from = Math.min(dayStart, ms - Math.max(group!.delayBetweenEntriesMinutes * 60_000, 60_000));
      st.approved = st.approved.filter((a) => a.at >= from - 86_400_000);
      let last: number | null = null;
      for (const a of st.approved) {
        if (a.at < from || a.at > ms) continue;
        if (last == null || a.at > last) last = a.at;
        if (a.at >= dayStart) {
          input.approvedToday++;
          if (a.paymentType === EntrancePaymentType.Subscription) input.approvedTodayBySubscription++;
        }
      }
      input.lastApprovedAt = last == null ? null : new Date(last);
      if (parentSt) {
        input.parentSubscriptionUsesToday = parentSt.subscriptionUses.filter((x) => x >= dayStart && x <= ms).length;
      }
      const { people, minutes } = this.loadLimit;
      if (people > 0 && minutes > 0) {
        const since = ms - minutes * 60_000;
        this.clubApproved = this.clubApproved.filter((x) => x > since);
        input.clubLoad = this.clubApproved.filter((x) => x <= ms).length;
      }
    }
    const d = decideEntrance(input);
    const index = this.logs.length;
    this.logs.push({
      clubId: this.clubId,
      terminalId,
      clientId: client?.id ?? null,
      groupId: client?.groupId ?? null,
      at,
      status: d.status,
      reason: d.reason,
      identificationKind: identification.kind,
      amount: d.amount,
      paymentType: d.paymentType,
      payerClientId: d.payerClientId,
    });
    const payer = d.payerClientId != null ? parentSt : st;
    if (d.amount > 0 && payer) {
      payer.decision.balance -= d.amount;
      this.queued(payer).money -= d.amount;
      this.ledger.push({
        log: index,
        row: {
          clubId: this.clubId,
          clientId: payer.decision.id,
          kind: 'money',
          delta: -d.amount,
          source: 'entrance',
          at,
        },
      });
    }
    if (d.bonusUsed > 0 && st) {
      st.decision.bonusEntries -= d.bonusUsed;
      this.queued(st).bonus -= d.bonusUsed;
      this.ledger.push({
        log: index,
        row: {
          clubId: this.clubId,
          clientId: st.decision.id,
          kind: 'bonus',
          delta: -d.bonusUsed,
          source: 'entrance',
          at,
        },
      });
    }
    if (d.status === EntranceStatus.Approved) {
      st?.approved.push({ at: ms, paymentType: d.paymentType });
      if (d.paymentType === EntrancePaymentType.Subscription) (payer ?? st)?.subscriptionUses.push(ms);
      if (this.loadLimit.people > 0) this.clubApproved.push(ms);
    }
    return { status: d.status, amount: d.amount, paymentType: d.paymentType };
  }

  /**
   * Writes the queued log rows (ids taken from the sequence first, so ledger
   * rows can name them), the ledger rows of entrance charges, and the new
   * balances of the clients charged since the last flush.
   */
  async flush(db: Db | Tx): Promise<number> {
    const n = this.logs.length;
    if (n === 0) return 0;
    const idRows = await queryRows<{ id: number | string }>(
      db,
      sql`select nextval(pg_get_serial_sequence('entrance_logs', 'id'))::float8 as id from generate_series(1, ${n})`,
    );
    const ids = idRows.map((r) => Number(r.id));
    // One statement per few thousand rows: a JSON array expanded by jsonb_to_recordset
    // is far cheaper than a many-row VALUES list on PGlite.
    const logs = this.logs.map((l, i) => ({
      id: ids[i],
      club_id: l.clubId,
      terminal_id: l.terminalId,
      client_id: l.clientId,
      group_id: l.groupId,
      at: (l.at as Date).toISOString(),
      status: l.status,
      reason: l.reason,
      identification_kind: l.identificationKind,
      amount: l.amount,
      payment_type: l.paymentType,
      payer_client_id: l.payerClientId ?? null,
    }));
    for (let i = 0; i < logs.length; i += 5000) {
      await db.execute(sql`insert into entrance_logs
          (id, club_id, terminal_id, client_id, group_id, at, status, reason, identification_kind, amount, payment_type,
           payer_client_id)
        select id, club_id, terminal_id, client_id, group_id, at, status, reason, identification_kind, amount, payment_type,
          payer_client_id
        from jsonb_to_recordset(${JSON.stringify(logs.slice(i, i + 5000))}::jsonb) as x(
          id bigint, club_id int, terminal_id int, client_id int, group_id int, at timestamptz,
          status smallint, reason smallint, identification_kind text, amount int, payment_type smallint,
          payer_client_id int)`);
    }
    const ledger = this.ledger.map((x) => ({ ...x.row, sourceId: ids[x.log] }));
    for (let i = 0; i < ledger.length; i += 1000) await db.insert(balanceLedger).values(ledger.slice(i, i + 1000));
    // Increments, not absolute values: other writers (the money services of the history, a live
    // terminal or the console while the history runs in the background) change balances too.
    const touched = [...this.touched].filter(([, q]) => q.money !== 0 || q.bonus !== 0);
    for (let i = 0; i < touched.length; i += 500) {
      const part = touched.slice(i, i + 500);
      const cases = sql.join(
        part.map(([s, q]) => sql`when ${s.decision.id}::int then ${q.money}::int`),
        sql` `,
      );
      const bonusCases = sql.join(
        part.map(([s, q]) => sql`when ${s.decision.id}::int then ${q.bonus}::int`),
        sql` `,
      );
      await db
        .update(clients)
        .set({
          balance: sql`${clients.balance} + case ${clients.id} ${cases} else 0 end`,
          bonusEntries: sql`${clients.bonusEntries} + case ${clients.id} ${bonusCases} else 0 end`,
        })
        .where(
          inArray(
            clients.id,
            part.map(([s]) => s.decision.id),
          ),
        );
    }
    this.logs = [];
    this.ledger = [];
    this.touched.clear();
    return n;
  }

  private queued(st: ClientState): { money: number; bonus: number } {
    let q = this.touched.get(st);
    if (!q) this.touched.set(st, (q = { money: 0, bonus: 0 }));
    return q;
  }

  /**
   * What the engine remembers beyond the database, after a flush (recent approved entrances per
   * client, subscription uses, the club's load window; those before `at` less two days are
   * dropped): saved with each committed batch of the
   * demo history so that a later start resumes it (history.ts).
   */
  snapshot(at: Date): EngineSnapshot {
    // The decisions look back a business day or a group's delay at most: two days are plenty.
    const since = at.getTime() - 2 * 86_400_000;
    const clients: EngineSnapshot['clients'] = [];
    for (const st of this.byId.values()) {
      st.approved = st.approved.filter((a) => a.at >= since);
      st.subscriptionUses = st.subscriptionUses.filter((x) => x >= since);
      if (st.approved.length || st.subscriptionUses.length)
        clients.push([st.decision.id, st.approved, st.subscriptionUses]);
    }
    return { clients, clubApproved: this.clubApproved.filter((x) => x >= since) };
  }

  /** Restores a {@link snapshot} into an engine freshly loaded from the database. */
  restore(s: EngineSnapshot): void {
    for (const [id, approved, uses] of s.clients) {
      const st = this.byId.get(id);
      if (st) {
        st.approved = approved;
        st.subscriptionUses = uses;
      }
    }
    this.clubApproved = s.clubApproved;
  }

  private erev(d: LocalDate): boolean {
    const key = isoDate(d);
    let v = this.erevMemo.get(key);
    if (v === undefined) this.erevMemo.set(key, (v = isErevChag(d, this.location.il)));
    return v;
  }
}

/** See {@link BatchEntranceEngine.snapshot}: [client id, approved entrances, subscription uses]. */
export interface EngineSnapshot {
  clients: [number, { at: number; paymentType: number }[], number[]][];
  clubApproved: number[];
}

interface ClientState {
  decision: DecisionClient;
  /** Recent approved entrances (ms, payment type), for delay, quotas and rapid re-entry. */
  approved: { at: number; paymentType: number }[];
  parentId: number | null;
  /** The parent's state, when the client has a parent in the club. */
  parentState?: ClientState;
  /** Approved entrances on this client's subscription (its own and its children's), ms. */
  subscriptionUses: number[];
}

interface GroupState {
  decision: DecisionGroup;
  newDayStartHour: number;
  rows: (ScheduleRowTimes & { price: number })[];
}
