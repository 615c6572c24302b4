import { sql } from 'drizzle-orm';
import {
  bigserial,
  foreignKey,
  customType,
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type {
  AuditAction,
  AuditEntity,
  AutoRenewSettings,
  ClubSettings,
  HashavshevetDetails,
  Inventory,
  MasavSettings,
  SafetyStep,
  Permissions,
  SumitSettings,
  TerminalSettings,
} from '@venue/domain';

/**
 * The database schema (Drizzle, PostgreSQL dialect). Every row that belongs
 * to a club carries `club_id` (DESIGN §6). Money columns are integer minor
 * units (agorot). Times of day are minutes after midnight.
 */

export const clubs = pgTable('clubs', {
  id: serial('id').primaryKey(),
  externalClubId: integer('external_club_id').notNull().unique(),
  name: text('name').notNull(),
  /** Licenses left in the club's pool ("licancesAmount", seed 000 §3). */
  licensesAmount: integer('licenses_amount').notNull().default(0),
  currency: integer('currency').notNull().default(376),
  /** ClubSettings of packages/domain, defaults applied on read. */
  settings: jsonb('settings').$type<Partial<ClubSettings>>().notNull().default({}),
  /** ClubLocation for zmanim; null = Jerusalem. */
  location: jsonb('location'),
  /** Named capacities (GET /Club/GetCapacities), e.g. products: [{name, capacity}]. */
  capacities: jsonb('capacities').notNull().default([]),
  /**
   * The credential of the club's public iCalendar feed (docs/calendar.md "Feed"):
   * 256 random bits, base64url; null until first asked for; replaced on rotation.
   */
  calendarFeedToken: text('calendar_feed_token').unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Set while the operator has disabled the club: its users cannot sign in, its terminals are refused (docs/operator.md). */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Null for the service operator (level SuperUser), who is not bound to one club. */
    clubId: integer('club_id').references(() => clubs.id),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull().default(''),
    language: text('language').notNull().default('he'),
    role: smallint('role').notNull().default(1),
    level: smallint('level').notNull().default(0),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** Stored permission flags (a flag missing from an older row reads false). */
    permissions: jsonb('permissions').$type<Partial<Permissions>>().notNull().default({}),
    termsVersion: integer('terms_version').notNull().default(0),
    /** The console's saved table layouts, by table key (opaque to the server). */
    dataGridStates: jsonb('data_grid_states').$type<Record<string, unknown>>().notNull().default({}),
    /** Employee position (seed 001 §3 "User"); positions belong to the attendance area. */
    employeePositionId: integer('employee_position_id'),
    /** The drawn signature (PNG data URL) of the accepted terms version, and when. */
    termsSignature: text('terms_signature'),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    disabled: boolean('disabled').notNull().default(false),
    /** Bumped to revoke every token issued before (disable, password change). */
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_club_username').on(sql`coalesce(${t.clubId}, 0)`, sql`lower(${t.username})`)],
);

export const groups = pgTable(
  'groups',
  {
    id: serial('id'),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    name: text('name').notNull(),
    color: text('color').notNull().default('#1677ff'),
    allowEntrance: boolean('allow_entrance').notNull().default(true),
    allowPayment: boolean('allow_payment').notNull().default(true),
    allowPurchases: boolean('allow_purchases').notNull().default(true),
    bonus: integer('bonus').notNull().default(0),
    minChargeAmount: integer('min_charge_amount').notNull().default(0),
    maxChargeAmount: integer('max_charge_amount').notNull().default(0),
    entranceState: smallint('entrance_state').notNull().default(1),
    subscriptionEndType: smallint('subscription_end_type').notNull().default(4),
    daysToExtend: integer('days_to_extend').notNull().default(0),
    delayBetweenEntriesMinutes: integer('delay_between_entries_minutes').notNull().default(0),
    maxEntriesPerDay: integer('max_entries_per_day').notNull().default(0),
    maxEntriesPerDayPerSubscriber: integer('max_entries_per_day_per_subscriber').notNull().default(0),
    priority: integer('priority').notNull().default(0),
    newDayStartHour: smallint('new_day_start_hour').notNull().default(0),
    useHalachicTimes: boolean('use_halachic_times').notNull().default(false),
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.id] }), index('groups_club').on(t.clubId)],
);

/**
 * Schedule rows (seed 001 §3 "Schedule entry"). A row with a group belongs to
 * that group's times-and-prices list; a row without one is a general schedule,
 * linked to groups through schedule_to_group.
 */
export const schedules = pgTable(
  'schedules',
  {
    id: serial('id'),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    groupId: integer('group_id'),
    sortOrder: integer('sort_order').notNull().default(0),
    days: smallint('days').array().notNull(),
    fromTime: smallint('from_time'),
    toTime: smallint('to_time'),
    fromHalachic: smallint('from_halachic'),
    fromOffset: smallint('from_offset').notNull().default(0),
    toHalachic: smallint('to_halachic'),
    toOffset: smallint('to_offset').notNull().default(0),
    fromDate: date('from_date'),
    toDate: date('to_date'),
    price: integer('price').notNull().default(0),
    pricePerBeat: integer('price_per_beat').notNull().default(0),
    displayName: text('display_name').notNull().default(''),
    maxPurchaseQty: integer('max_purchase_qty').notNull().default(0),
    description: text('description').notNull().default(''),
    minutes: integer('minutes').notNull().default(0),
    priority: integer('priority').notNull().default(0),
    entranceState: smallint('entrance_state').notNull(),
    terminalId: integer('terminal_id'),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    foreignKey({
      name: 'schedules_group_id_fk',
      columns: [t.clubId, t.groupId],
      foreignColumns: [groups.clubId, groups.id],
    }),
    index('schedules_group').on(t.clubId, t.groupId),
  ],
);

export const scheduleToGroup = pgTable(
  'schedule_to_group',
  {
    id: serial('id'),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    scheduleId: integer('schedule_id').notNull(),
    groupId: integer('group_id').notNull(),
  },
  // The gate reads a group's linked general schedules by group (modules/gate/gate-batch.ts).
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    foreignKey({
      name: 'schedule_to_group_schedule_id_fk',
      columns: [t.clubId, t.scheduleId],
      foreignColumns: [schedules.clubId, schedules.id],
    }),
    foreignKey({
      name: 'schedule_to_group_group_id_fk',
      columns: [t.clubId, t.groupId],
      foreignColumns: [groups.clubId, groups.id],
    }),
    index('schedule_to_group_group').on(t.clubId, t.groupId, t.scheduleId),
  ],
);

export const clients = pgTable(
  'clients',
  {
    id: serial('id'),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    /** Client number, sequential per club. */
    number: integer('number').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull().default(''),
    parentId: integer('parent_id'),
    personalId: text('personal_id').notNull().default(''),
    /** E.164, or '' when unknown. */
    phone: text('phone').notNull().default(''),
    /** E-mail for notices and member sign-in codes (docs/notifications.md, docs/members.md), or '' when unknown. */
    email: text('email').notNull().default(''),
    city: text('city').notNull().default(''),
    address: text('address').notNull().default(''),
    groupId: integer('group_id'),
    clientType: smallint('client_type').notNull().default(1),
    /** An employee's position (docs/attendance.md): its hourly rate pays the employee's hours; null = none. */
    employeePositionId: integer('employee_position_id'),
    cardSerial: text('card_serial').notNull().default(''),
    subscriptionStart: date('subscription_start'),
    subscriptionEnd: date('subscription_end'),
    licenseExpiry: date('license_expiry'),
    status: smallint('status').notNull().default(1),
    messageToClient: text('message_to_client').notNull().default(''),
    /** Money balance ("beats") in minor units: always the sum of balance_ledger rows of kind 'money'. */
    balance: integer('balance').notNull().default(0),
    /** Bonus entrances left (count): always the sum of balance_ledger rows of kind 'bonus' (docs/entrance-reasons.md). */
    bonusEntries: integer('bonus_entries').notNull().default(0),
    /** Temporary balance in minor units: always the sum of balance_ledger rows of kind 'temp' (docs/money.md). */
    tempBalance: integer('temp_balance').notNull().default(0),
    /** Subscription balance (immersions left on a kala subscription): the sum of balance_ledger rows of kind 'subscription'. */
    subscriptionBalance: integer('subscription_balance').notNull().default(0),
    /** Enrolment allowances at a terminal (seed 001 §3); the club's self-registration settings apply too. */
    allowEnrollFingerprint: boolean('allow_enroll_fingerprint').notNull().default(true),
    allowEnrollCard: boolean('allow_enroll_card').notNull().default(true),
    allowEnrollFace: boolean('allow_enroll_face').notNull().default(true),
    /** The code a client types at a terminal to enrol a fingerprint, card or face (seed 001 §3); '' = none. */
    enrollPassword: text('enroll_password').notNull().default(''),
    /** Card technology (domain CARD_TYPES), 0 = unknown. */
    cardType: smallint('card_type').notNull().default(0),
    /** This client's price instead of the schedule's, minor units; null = none (seed 001 §3). */
    specialPrice: integer('special_price'),
    /** The club's own code for the client (seed 001 §3 "client code"). */
    clientCode: text('client_code').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    foreignKey({
      name: 'clients_group_id_fk',
      columns: [t.clubId, t.groupId],
      foreignColumns: [groups.clubId, groups.id],
    }),
    uniqueIndex('clients_club_number').on(t.clubId, t.number),
    // An enrolment code identifies one live client of the club (409 PASSWORD_TAKEN).
    uniqueIndex('clients_club_enroll_password')
      .on(t.clubId, t.enrollPassword)
      .where(sql`${t.enrollPassword} <> '' and ${t.status} <> 3`),
    index('clients_club_parent').on(t.clubId, t.parentId),
    // Identification by client code at the gate (kind 'code').
    index('clients_club_code')
      .on(t.clubId, t.clientCode)
      .where(sql`${t.clientCode} <> ''`),
    // The list's count of live clients reads this index only (no table rows).
    index('clients_club_status').on(t.clubId, t.status),
    // "Subscription end, newest first, none last" walks this index instead of sorting.
    index('clients_club_subscription_end_desc').on(t.clubId, sql`${t.subscriptionEnd} desc nulls last`),
    uniqueIndex('clients_club_card')
      .on(t.clubId, t.cardSerial)
      .where(sql`${t.cardSerial} <> '' and ${t.status} <> 3`),
    index('clients_club_name').on(t.clubId, t.lastName, t.firstName),
    index('clients_club_personal_id').on(t.clubId, t.personalId),
    index('clients_club_phone').on(t.clubId, t.phone),
    // The member app's sign-in finds a contact in every club (docs/members.md).
    index('clients_phone_any_club')
      .on(t.phone)
      .where(sql`${t.phone} <> ''`),
    index('clients_email_lower')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.email} <> ''`),
    index('clients_club_group').on(t.clubId, t.groupId),
    index('clients_club_created').on(t.clubId, t.createdAt),
    index('clients_club_subscription_end').on(t.clubId, t.subscriptionEnd),
    // The client list's search (modules/clients): trigrams of this exact expression (pg_trgm).
    index('clients_search_trgm').using(
      'gin',
      sql`lower(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.personalId} || ' ' || ${t.cardSerial} || ' ' || ${t.phone}) gin_trgm_ops`,
    ),
  ],
);

/** Ledger of balance changes (DESIGN §7): the balance equals the sum of its rows. */
export const balanceLedger = pgTable(
  'balance_ledger',
  {
    id: bigserial('id', { mode: 'number' }),
    clubId: integer('club_id').notNull(),
    clientId: integer('client_id').notNull(),
    /** 'money' (beats) or 'temp' (temporary balance). */
    kind: text('kind').notNull(),
    /** Signed change in minor units. */
    delta: integer('delta').notNull(),
    /** What caused it: 'entrance', 'credit', 'purchase', 'demo', ... */
    source: text('source').notNull(),
    sourceId: bigint('source_id', { mode: 'number' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id'),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    foreignKey({
      name: 'balance_ledger_client_id_fk',
      columns: [t.clubId, t.clientId],
      foreignColumns: [clients.clubId, clients.id],
    }),
    index('balance_ledger_client').on(t.clientId),
  ],
);

export const terminals = pgTable(
  'terminals',
  {
    id: serial('id'),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    serial: text('serial').notNull(),
    name: text('name').notNull(),
    /** scrypt hash of the secret issued at creation. */
    secretHash: text('secret_hash').notNull(),
    approved: boolean('approved').notNull().default(false),
    isMain: boolean('is_main').notNull().default(false),
    gateOpenSeconds: integer('gate_open_seconds').notNull().default(5),
    doorState: smallint('door_state').notNull().default(2),
    /** Further settings of seed 001 §3 (flags, relays, acceptors), grown by later issues. */
    settings: jsonb('settings').$type<Partial<TerminalSettings>>().notNull().default({}),
    lastConnection: timestamp('last_connection', { withTimezone: true }),
    deleted: boolean('deleted').notNull().default(false),
    /** Devices the terminal last reported in hello or heartbeat (GET /api/Terminal/GetConnectedDevices). */
    devices: jsonb('devices').$type<string[]>().notNull().default([]),
    devicesReportedAt: timestamp('devices_reported_at', { withTimezone: true }),
    /** Server instance holding the terminal's link now (null = none): routes actions across instances. */
    connectedInstance: text('connected_instance'),
    /** The terminal software version its last hello reported (docs/operator.md "Terminal fleet"); null = never reported. */
    softwareVersion: text('software_version'),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }), // A serial is unique across every club: terminals.service checks it under an advisory lock
    // (a unique index without club_id cannot be enforced on a distributed table, docs/scaling.md).
    uniqueIndex('terminals_club_serial').on(t.clubId, t.serial),
    index('terminals_serial').on(t.serial),
  ],
);

/**
 * The last approved entrance per client that the rapid re-entry rule
 * guards (seed 001 §4, §9: 2 seconds): one row per client, written by the
 * same statement as the entrance's log row, so two approvals of one client
 * within the window — by card and by code, at two terminals, on two server
 * instances — cannot both land (modules/gate/gate-batch.ts "one person, one
 * moment", docs/entrance-reasons.md). Narrow on purpose: it is updated at
 * every approved entrance.
 */
export const clientEntryGuard = pgTable(
  'client_entry_guard',
  {
    clubId: integer('club_id').notNull(),
    clientId: integer('client_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  // club_id leads the key: the table is distributed with the club's other rows (DESIGN §12).
  (t) => [primaryKey({ columns: [t.clubId, t.clientId] })],
);

/** Entrance log: one row per decision (seed 000 §4 statuses). */
export const entranceLogs = pgTable(
  'entrance_logs',
  {
    id: bigserial('id', { mode: 'number' }),
    clubId: integer('club_id').notNull(),
    terminalId: integer('terminal_id'),
    clientId: integer('client_id'),
    groupId: integer('group_id'),
    at: timestamp('at', { withTimezone: true }).notNull(),
    status: smallint('status').notNull(),
    reason: smallint('reason').notNull(),
    identificationKind: text('identification_kind').notNull(),
    /** Money taken from the balance for this entrance, minor units. */
    amount: integer('amount').notNull().default(0),
    paymentType: smallint('payment_type').notNull().default(0),
    /** The terminal's own event id: a resend is applied at most once (DESIGN §8). */
    eventId: text('event_id'),
    /** Who paid when not the client: the parent of a child entering on the parent's subscription or money. */
    payerClientId: integer('payer_client_id'),
    /** Decided by the terminal on its own while the server was unreachable (uploaded in an offline-batch). */
    offline: boolean('offline').notNull().default(false),
    /** An entrance paid at the terminal (OpenWithPay, reason 7 EntryByPayment): the purchase that paid it. */
    purchaseId: bigint('purchase_id', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    index('entrance_logs_club_at').on(t.clubId, t.at),
    index('entrance_logs_client_at').on(t.clientId, t.at),
    uniqueIndex('entrance_logs_event').on(t.clubId, t.terminalId, t.eventId),
    // A family's entrances on the parent's subscription (the per-subscriber quota), without a scan.
    index('entrance_logs_payer_at')
      .on(t.payerClientId, t.at)
      .where(sql`${t.payerClientId} is not null`),
  ],
);

/**
 * Entrances admitted from the front desk although the gate refused them (docs/front-desk.md
 * "The override rule"): the approved entrance (reason 29 EntryByStaffOverride), who admitted it,
 * the refusal it overrode and the reason given. Written once, in the entrance's transaction.
 */
export const entranceOverrides = pgTable(
  'entrance_overrides',
  {
    clubId: integer('club_id').notNull(),
    id: serial('id').notNull(),
    entranceLogId: bigint('entrance_log_id', { mode: 'number' }).notNull(),
    userId: integer('user_id'),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** The gate's refusal that was overridden: status (seed 000 §4) and reason (0–29). */
    refusedStatus: smallint('refused_status').notNull(),
    refusedReason: smallint('refused_reason').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    uniqueIndex('entrance_overrides_log').on(t.clubId, t.entranceLogId),
    index('entrance_overrides_at').on(t.clubId, t.at),
    foreignKey({
      name: 'entrance_overrides_log_fk',
      columns: [t.clubId, t.entranceLogId],
      foreignColumns: [entranceLogs.clubId, entranceLogs.id],
    }),
  ],
);

/**
 * The club's emergency state at the gates (issue 36, docs/gate-safety.md): open-all (evacuation)
 * and lockdown, each null when off, else who started it, when, why and from where. One row per
 * club, written only by modules/gate/safety.service.ts; the gate reads it from memory.
 */
export const clubSafety = pgTable('club_safety', {
  clubId: integer('club_id').primaryKey(),
  openAll: jsonb('open_all').$type<SafetyStep | null>(),
  lockdown: jsonb('lockdown').$type<SafetyStep | null>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Clients whose card and code pass a lockdown (staff: attendants, security; docs/gate-safety.md). */
export const lockdownOverrides = pgTable(
  'lockdown_overrides',
  {
    clubId: integer('club_id').notNull(),
    clientId: integer('client_id').notNull(),
    /** The user who granted it. */
    grantedBy: integer('granted_by'),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.clientId] }),
    foreignKey({
      name: 'lockdown_overrides_client_fk',
      columns: [t.clubId, t.clientId],
      foreignColumns: [clients.clubId, clients.id],
    }),
  ],
);

/**
 * Areas of a club for live occupancy (issue 36, docs/gate-safety.md "Occupancy"): terminals grouped
 * (entrance hall, pool, immersion rooms), each with a capacity (0 = none), a maximum stay after
 * which a visit closes itself (minutes, 0 = none) and anti-passback (0 off, 1 soft, 2 hard) with a
 * timed reset (minutes, 0 = none).
 */
export const gateAreas = pgTable(
  'gate_areas',
  {
    clubId: integer('club_id').notNull(),
    id: serial('id').notNull(),
    name: text('name').notNull(),
    capacity: integer('capacity').notNull().default(0),
    maxStayMinutes: integer('max_stay_minutes').notNull().default(0),
    antiPassback: smallint('anti_passback').notNull().default(0),
    antiPassbackResetMinutes: integer('anti_passback_reset_minutes').notNull().default(0),
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.id] })],
);

/** Which area a terminal leads into (a terminal in no area counts for the club only). */
export const gateAreaTerminals = pgTable(
  'gate_area_terminals',
  {
    clubId: integer('club_id').notNull(),
    terminalId: integer('terminal_id').notNull(),
    areaId: integer('area_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.terminalId] })],
);

/**
 * One stay of a client in an area: from an approved entrance at a terminal of the area until an
 * exit (`left_how` exit), an attendant's check-out (checkout), an entrance into another area
 * (moved) or the area's maximum stay (auto, `flagged`). `passback`: admitted by soft anti-passback
 * although inside already. Open while `left_at` is null.
 */
export const areaPresence = pgTable(
  'area_presence',
  {
    clubId: integer('club_id').notNull(),
    id: bigserial('id', { mode: 'number' }),
    areaId: integer('area_id').notNull(),
    clientId: integer('client_id').notNull(),
    terminalId: integer('terminal_id'),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull(),
    leftAt: timestamp('left_at', { withTimezone: true }),
    leftHow: text('left_how').$type<'exit' | 'checkout' | 'moved' | 'auto'>(),
    flagged: boolean('flagged').notNull().default(false),
    passback: boolean('passback').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    index('area_presence_open')
      .on(t.clubId, t.clientId)
      .where(sql`${t.leftAt} is null`),
    index('area_presence_entered').on(t.clubId, t.enteredAt),
  ],
);

/** Audit rows of staff changes (DESIGN §10): who, what, when, from where, before and after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }),
    /** 0 for the service operator's actions outside any club (docs/scaling.md: a distribution column is never null). */
    clubId: integer('club_id').notNull(),
    userId: integer('user_id'),
    /** A code of the label catalogue (packages/domain labels.ts), so every action has its words. */
    action: text('action').$type<AuditAction>().notNull(),
    entity: text('entity').$type<AuditEntity>().notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    index('audit_log_club_at').on(t.clubId, t.at),
    // A client's history (GET /Client/GetClientHistory) reads one entity's rows newest first.
    index('audit_log_entity').on(t.clubId, t.entity, t.entityId, t.at),
  ],
);

/** Small key-value store for server state (generated secrets, demo flags). */
export const serverState = pgTable('server_state', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Failed sign-ins per club and user name (docs/security.md "Sign-in"): the
 * growing delay after repeated failures. Kept for names that match no user
 * too, so the answer does not tell which names exist; shared by every server
 * instance. `key` is `<externalClubId>|<lower-case user name>` (the name from
 * all addresses) or `<externalClubId>|<lower-case user name>|<address>`.
 */
export const loginFailures = pgTable('login_failures', {
  key: text('key').primaryKey(),
  /** Consecutive failures since the last success. */
  failures: integer('failures').notNull().default(0),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull().defaultNow(),
  /** No sign-in under this name before this moment, even with the right password. */
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/**
 * Sign-in sessions (docs/security.md "Sessions"): one row per successful
 * sign-in; the token carries its id (`sid`). A request is accepted while the
 * row is not ended, not idle longer than SESSION_IDLE_SECONDS and before its
 * absolute expiry. Sign-out, a password change, disabling the user or the club
 * and idle expiry end it (`ended_at`, `end_reason`).
 */
export const sessions = pgTable(
  'sessions',
  {
    /** 128 random bits, base64url. Not a credential alone: the token's signature is. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last request of the session, renewed at most once a minute. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** The token's own expiry (TOKEN_TTL_SECONDS after sign-in). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** signout, password, disabled, clubDisabled, idle. */
    endReason: text('end_reason'),
    /** The address it signed in from. */
    ip: text('ip').notNull().default(''),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/**
 * Biometric templates (seed 001 §3 identification by fingerprint and face).
 * Highly sensitive (Israeli Privacy Protection Regulations, Amendment 13):
 * the template and the face image are AES-256-GCM ciphertexts
 * (lib/crypto.ts); `template_mac` is a keyed HMAC of the template so the gate
 * finds a match by index without decrypting rows.
 */
export const biometricTemplates = pgTable(
  'biometric_templates',
  {
    id: serial('id'),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    clientId: integer('client_id').notNull(),
    /** 'fingerprint' or 'face'. */
    kind: text('kind').notNull(),
    templateEnc: text('template_enc').notNull(),
    templateMac: text('template_mac').notNull(),
    /** Face enrolment image (a data URL), encrypted; null for fingerprints. */
    imageEnc: text('image_enc'),
    terminalId: integer('terminal_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    foreignKey({
      name: 'biometric_templates_client_id_fk',
      columns: [t.clubId, t.clientId],
      foreignColumns: [clients.clubId, clients.id],
    }),
    uniqueIndex('biometric_templates_mac').on(t.clubId, t.kind, t.templateMac),
    index('biometric_templates_client').on(t.clubId, t.clientId),
  ],
);

/** Quick-exit records (seed 001 §3 "Quick-exit record", §4 outcomes). One per entrance. */
export const quickExits = pgTable(
  'quick_exits',
  {
    id: bigserial('id', { mode: 'number' }),
    clubId: integer('club_id').notNull(),
    clientId: integer('client_id').notNull(),
    entranceId: bigint('entrance_id', { mode: 'number' }).notNull(),
    terminalId: integer('terminal_id').notNull(),
    /** QuickExitOutcome of packages/domain. */
    type: smallint('type').notNull(),
    entranceAt: timestamp('entrance_at', { withTimezone: true }).notNull(),
    exitAt: timestamp('exit_at', { withTimezone: true }).notNull(),
    /** Whole minutes between entrance and exit. */
    durationMinutes: integer('duration_minutes').notNull(),
    /** Money credited back, minor units. */
    rewardAmount: integer('reward_amount').notNull().default(0),
    /** The balance_ledger row of the reward, when one was credited. */
    transactionId: bigint('transaction_id', { mode: 'number' }),
    eventId: text('event_id'),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    uniqueIndex('quick_exits_entrance').on(t.clubId, t.entranceId),
    uniqueIndex('quick_exits_event').on(t.clubId, t.terminalId, t.eventId),
    index('quick_exits_club_exit').on(t.clubId, t.exitAt),
  ],
);

/** Terminal messages (seed 001 §3): shown by the club's terminals between their dates while active. */
export const terminalMessages = pgTable(
  'terminal_messages',
  {
    id: serial('id'),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    name: text('name').notNull(),
    /** Not shown to the client (seed 001 §3). */
    title: text('title').notNull().default(''),
    /** 'Basic', 'Extra' or 'Popup' (seed 000 §3 message popup kinds). */
    type: text('type').notNull().default('Basic'),
    content: text('content').notNull().default(''),
    /** Inclusive first and last day (club time zone); null = open-ended. */
    startDate: date('start_date'),
    endDate: date('end_date'),
    displaySeconds: integer('display_seconds').notNull().default(30),
    active: boolean('active').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.id] }), index('terminal_messages_club').on(t.clubId)],
);

// ---------------------------------------------------------------- money (docs/money.md)

/** Raw bytes (MASAV files, license-request reference files). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => Buffer.from(v),
});

/**
 * Invoice counter per club: the next invoice number is taken by an upsert
 * inside the purchase transaction, so the row stays locked until commit and a
 * rolled-back purchase gives its number back: numbers have no gaps.
 */
export const invoiceCounters = pgTable('invoice_counters', {
  clubId: integer('club_id').primaryKey(),
  last: integer('last').notNull().default(0),
});

/** A purchase (seed 001 §3 "Purchase"). Money in minor units; `total` includes VAT. */
export const purchases = pgTable(
  'purchases',
  {
    id: bigserial('id', { mode: 'number' }),
    clubId: integer('club_id').notNull(),
    clientId: integer('client_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The gap-free invoice number (invoice_counters), also the number of the purchase's tax
     * invoice-receipt or receipt; null while a MASAV payment is not collected: the number is taken
     * when it is (modules/documents issueDocumentForCollectedPayment, docs/money.md "Documents").
     */
    invoiceNumber: integer('invoice_number'),
    /** Price with VAT (sum of the items). */
    total: integer('total').notNull(),
    amountBeforeVat: integer('amount_before_vat').notNull(),
    vat: integer('vat').notNull(),
    vatRateBp: integer('vat_rate_bp').notNull(),
    /** PurchasePaymentStatus of packages/domain. */
    paymentStatus: smallint('payment_status').notNull(),
    balanceBefore: integer('balance_before').notNull().default(0),
    balanceAfter: integer('balance_after').notNull().default(0),
    tempBalanceBefore: integer('temp_balance_before').notNull().default(0),
    tempBalanceAfter: integer('temp_balance_after').notNull().default(0),
    paidCash: integer('paid_cash').notNull().default(0),
    paidCredit: integer('paid_credit').notNull().default(0),
    paidBeats: integer('paid_beats').notNull().default(0),
    paidTemp: integer('paid_temp').notNull().default(0),
    paidOther: integer('paid_other').notNull().default(0),
    /** Card fee charged on top (club creditChargeFee / entranceCreditFee), included in total. */
    fee: integer('fee').notNull().default(0),
    lastFour: text('last_four').notNull().default(''),
    /** Cash paid above the total that was not given back (seed 001 §3 "excess"). */
    excess: integer('excess').notNull().default(0),
    /** Cash rounding to 10 agorot (DOMAIN-FACTS): what was paid minus the total, −4…+5; included in paid_cash. */
    rounding: integer('rounding').notNull().default(0),
    /** What refunds gave back so far (sum of purchase_refunds.total), minor units; equals total once Refunded. */
    refunded: integer('refunded').notNull().default(0),
    /** PurchasePayer: 0 the client, 1 the parent (father), 2 a manager. */
    payer: smallint('payer').notNull().default(0),
    payerClientId: integer('payer_client_id'),
    isAdminUser: boolean('is_admin_user').notNull().default(true),
    /** 'console', 'terminal', 'autorenew', 'license', 'masav'. */
    source: text('source').notNull(),
    userId: integer('user_id'),
    terminalId: integer('terminal_id'),
    idempotencyKey: text('idempotency_key').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    uniqueIndex('purchases_invoice').on(t.clubId, t.invoiceNumber),
    uniqueIndex('purchases_idem').on(t.clubId, t.idempotencyKey),
    index('purchases_client_at').on(t.clubId, t.clientId, t.at),
    index('purchases_club_at').on(t.clubId, t.at),
    // The refunded purchases of a period (few): the payments report adds their payments to
    // financial_daily's, which leaves them out (docs/reports.md "Speed").
    index('purchases_refunded_at')
      .on(t.clubId, t.at)
      .where(sql`${t.paymentStatus} = 3`),
  ],
);

/** Items of a purchase (seed 000 §3 item types). */
export const purchaseItems = pgTable(
  'purchase_items',
  {
    id: bigserial('id', { mode: 'number' }),
    clubId: integer('club_id').notNull(),
    purchaseId: bigint('purchase_id', { mode: 'number' }).notNull(),
    itemType: smallint('item_type').notNull(),
    /** Product id, debt id, ... by type. */
    itemId: integer('item_id'),
    name: text('name').notNull().default(''),
    quantity: integer('quantity').notNull().default(1),
    unitPrice: integer('unit_price').notNull(),
    /** quantity × unitPrice, with VAT. */
    priceWithVat: integer('price_with_vat').notNull(),
    amountBeforeVat: integer('amount_before_vat').notNull(),
    /** Subscription or license end date of this item. */
    expiry: date('expiry'),
    /** Subscription details (period, start, end, end type, usage type, immersions). */
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    // The purchase's lines, and (with the columns the reports and dashboard sum) an index-only join
    // from a period of purchases: the planner then probes lines per purchase instead of scanning
    // every club's lines (docs/reports.md "Speed").
    index('purchase_items_purchase').on(
      t.purchaseId,
      t.itemType,
      t.itemId,
      t.quantity,
      t.priceWithVat,
      t.amountBeforeVat,
      t.clubId,
    ),
    // A club's License lines (item type 6), few among its lines: the licenses-used report reads these
    // and their purchases (by id) instead of probing every purchase of the period.
    index('purchase_items_license')
      .on(t.clubId, t.purchaseId)
      .where(sql`${t.itemType} = 6`),
  ],
);

/** Payments of a purchase (seed 000 §3 payment methods); several per purchase. */
export const purchasePayments = pgTable(
  'purchase_payments',
  {
    id: bigserial('id', { mode: 'number' }),
    clubId: integer('club_id').notNull(),
    purchaseId: bigint('purchase_id', { mode: 'number' }).notNull(),
    method: smallint('method').notNull(),
    amount: integer('amount').notNull(),
    chargeId: bigint('charge_id', { mode: 'number' }),
    lastFour: text('last_four').notNull().default(''),
  },
  // As purchase_items_purchase: an index-only join from a period of purchases.
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    index('purchase_payments_purchase').on(t.purchaseId, t.method, t.amount, t.clubId),
  ],
);

/**
 * Daily summary of the financial report (docs/reports.md "Speed"), one row per
 * club, local day (the club's time zone), terminal, seller and key, over the
 * purchases that were not refunded. Maintained by triggers on purchases,
 * purchase_items and purchase_payments in the same transaction as the write,
 * and rebuilt for a club when its time zone changes (migration
 * 0011_financial_daily_triggers). `kind` 1: per item type (`key` =
 * PurchaseItemType; `purchases` = purchases with such a line, `quantity`,
 * `amount_before_vat`, `total` = the lines' price with VAT); kind 2: per payment
 * method (`key` = PaymentMethod, `total` = money received); kind 0 (`key` 0):
 * `purchases` = purchases with at least one line, `total` = card fees.
 * `terminal_id`/`user_id` are 0 when the purchase has none. Money in minor units.
 */
export const financialDaily = pgTable(
  'financial_daily',
  {
    clubId: integer('club_id').notNull(),
    day: date('day').notNull(),
    terminalId: integer('terminal_id').notNull().default(0),
    userId: integer('user_id').notNull().default(0),
    kind: smallint('kind').notNull(),
    key: smallint('key').notNull(),
    purchases: integer('purchases').notNull().default(0),
    quantity: bigint('quantity', { mode: 'number' }).notNull().default(0),
    amountBeforeVat: bigint('amount_before_vat', { mode: 'number' }).notNull().default(0),
    total: bigint('total', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('financial_daily_key').on(t.clubId, t.day, t.kind, t.key, t.terminalId, t.userId)],
);

/**
 * Daily summary of the product lines (item type 10) of the purchases that were
 * not refunded (docs/reports.md "Speed"): the products report, the product
 * matrix and the dashboard's product charts read it by local day (the club's
 * time zone), terminal and seller instead of a period's lines. One row per
 * club, day, terminal, seller, `kind` and key. Kind 1 (`item_id` = the
 * product, `name` ''): `purchases` = purchases with a line of that product,
 * `quantity`, `amount_before_vat`, `total` = the lines' price with VAT. Kind 2
 * (`item_id`, `name` = a line's non-empty name): `purchases` = lines with that
 * name, the name of a product whose row is gone. Kind 0 (`item_id` 0, `name`
 * ''): `purchases` = purchases with at least one product line.
 * `item_id`/`terminal_id`/`user_id` are 0 when the line or purchase has none.
 * Maintained by triggers on purchases and purchase_items in the same
 * transaction as the write, rebuilt for a club when its time zone changes
 * (migration 0019_product_daily_triggers). Money in minor units.
 */
export const productDaily = pgTable(
  'product_daily',
  {
    clubId: integer('club_id').notNull(),
    day: date('day').notNull(),
    kind: smallint('kind').notNull(),
    itemId: integer('item_id').notNull().default(0),
    name: text('name').notNull().default(''),
    terminalId: integer('terminal_id').notNull().default(0),
    userId: integer('user_id').notNull().default(0),
    purchases: integer('purchases').notNull().default(0),
    quantity: bigint('quantity', { mode: 'number' }).notNull().default(0),
    amountBeforeVat: bigint('amount_before_vat', { mode: 'number' }).notNull().default(0),
    total: bigint('total', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('product_daily_key').on(t.clubId, t.kind, t.day, t.itemId, t.name, t.terminalId, t.userId)],
);

/**
 * Daily summary of the entrances and the purchases (docs/reports.md "Speed"):
 * the totals of the entrances, activities and payments reports without
 * reading a period's rows. `kind` 1: entrance_logs rows, by terminal, group,
 * `status` (EntranceStatus) and `payment_type`; `n` entrances, `amount` taken
 * from the balance. Kind 2: purchases (refunded ones too) by terminal and
 * `status` (= payment_status); `n` purchases, `amount` their `total`.
 * `day` is the local day of the row's instant in the club's time zone;
 * `terminal_id`/`group_id` are 0 when the row has none. Money in minor units.
 *
 * Merged rows, one per key and day; what was written since the last
 * compaction is in {@link activityDailyDelta}, and a reader sums both
 * (migrations 0016/0017). Rebuilt for a club when its time zone changes.
 */
export const activityDaily = pgTable(
  'activity_daily',
  {
    clubId: integer('club_id').notNull(),
    day: date('day').notNull(),
    kind: smallint('kind').notNull(),
    terminalId: integer('terminal_id').notNull().default(0),
    groupId: integer('group_id').notNull().default(0),
    status: smallint('status').notNull().default(0),
    paymentType: smallint('payment_type').notNull().default(0),
    n: integer('n').notNull().default(0),
    amount: bigint('amount', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('activity_daily_club_day').on(t.clubId, t.day)],
);

/**
 * What changed activity_daily since its last compaction, as its columns:
 * each INSERT, UPDATE or DELETE statement on entrance_logs or purchases adds
 * one row per key its rows touch (statement-level triggers over the
 * statement's transition tables, migration 0017). Append-only and without an
 * index, so the gate's concurrent log batches only append heap rows and never
 * wait on each other; `activity_daily_compact()` (a server job every few
 * seconds, activity-daily.ts) moves them into activity_daily, so it stays
 * small and readers scan it whole.
 */
export const activityDailyDelta = pgTable('activity_daily_delta', {
  clubId: integer('club_id').notNull(),
  day: date('day').notNull(),
  kind: smallint('kind').notNull(),
  terminalId: integer('terminal_id').notNull().default(0),
  groupId: integer('group_id').notNull().default(0),
  status: smallint('status').notNull().default(0),
  paymentType: smallint('payment_type').notNull().default(0),
  n: integer('n').notNull().default(0),
  amount: bigint('amount', { mode: 'number' }).notNull().default(0),
});

/**
 * The sandbox card provider's own books (integrations/clearing/sandbox-books.ts TableBooks; docs/money.md
 * "The sandbox provider"): the provider's side, not the product's — written through a pool of its own,
 * never in a request's transaction. Amounts in minor units.
 */
export const sandboxClearingBooks = pgTable(
  'sandbox_clearing_books',
  {
    idempotencyKey: text('idempotency_key').primaryKey(),
    /** 'charge' or 'refund'. */
    kind: text('kind').notNull(),
    /** A charge: 'approved', 'declined', 'refunded' (all given back); a refund: 'approved'. */
    status: text('status').notNull(),
    amount: integer('amount').notNull(),
    providerRef: text('provider_ref').notNull().default(''),
    reason: text('reason'),
    refunded: integer('refunded').notNull().default(0),
    /** A refund: the charge it gave back. */
    chargeRef: text('charge_ref'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sandbox_clearing_books_ref').on(t.providerRef)],
);

/**
 * Calls to the clearing provider (integrations/clearing): one row per
 * idempotency key, written before the call, so a duplicate finds it and an
 * uncertain outcome can be reconciled (safer payments). No card number or
 * CVV ever: only the token and the last four digits.
 */
export const charges = pgTable(
  'charges',
  {
    id: bigserial('id', { mode: 'number' }),
    clubId: integer('club_id').notNull(),
    clientId: integer('client_id'),
    idempotencyKey: text('idempotency_key').notNull(),
    kind: text('kind').notNull().default('charge'),
    provider: text('provider').notNull(),
    token: text('token').notNull().default(''),
    amount: integer('amount').notNull(),
    currency: integer('currency').notNull().default(376),
    /** 'pending', 'approved', 'declined', 'uncertain', 'refunded'. */
    status: text('status').notNull(),
    /** Refunded so far (partial refunds), minor units; status 'refunded' once it equals amount. */
    refunded: integer('refunded').notNull().default(0),
    providerRef: text('provider_ref'),
    lastFour: text('last_four').notNull().default(''),
    brand: text('brand').notNull().default(''),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** Safer payments: when an uncertain outcome was settled with the provider, and how. */
    reconciledAt: timestamp('reconciled_at', { withTimezone: true }),
    reconcileResult: text('reconcile_result'),
    purchaseId: bigint('purchase_id', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    uniqueIndex('charges_idem').on(t.clubId, t.idempotencyKey),
    index('charges_club_status').on(t.clubId, t.status),
  ],
);

/**
 * A client's payment method (seed 001 §3): a card (provider token, last four,
 * brand, expiry) or a MASAV authorization (bank details AES-256-GCM encrypted).
 * Only one live row per client.
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: serial('id'),
    clubId: integer('club_id').notNull(),
    clientId: integer('client_id').notNull(),
    /** 'card' or 'masav'. */
    kind: text('kind').notNull(),
    cardToken: text('card_token'),
    cardLastFour: text('card_last_four'),
    cardBrand: text('card_brand'),
    /** MM/YY. */
    cardExpiry: text('card_expiry'),
    ownerName: text('owner_name').notNull().default(''),
    /** Card owner's ID (clear, for the receipt); the MASAV payer ID lives in bank_enc. */
    ownerIdMasked: text('owner_id_masked').notNull().default(''),
    bankCode: text('bank_code'),
    /** Encrypted JSON {branch, account, ownerId} (lib/crypto.ts). */
    bankEnc: text('bank_enc'),
    accountLast: text('account_last'),
    authExpiry: date('auth_expiry'),
    /** Largest amount one MASAV debit may take, minor units (0 = no limit). */
    chargeLimit: integer('charge_limit').notNull().default(0),
    /** Stable MASAV reference of this authorization. */
    reference: text('reference'),
    deleted: boolean('deleted').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    foreignKey({
      name: 'payment_methods_client_id_fk',
      columns: [t.clubId, t.clientId],
      foreignColumns: [clients.clubId, clients.id],
    }),
    uniqueIndex('payment_methods_client')
      .on(t.clubId, t.clientId)
      .where(sql`${t.deleted} = false`),
    index('payment_methods_club').on(t.clubId, t.kind),
  ],
);

/** Debts of clients (seed 000 §7 "Debts"). Amounts in minor units. */
export const debts = pgTable(
  'debts',
  {
    id: serial('id'),
    clubId: integer('club_id').notNull(),
    clientId: integer('client_id').notNull(),
    amount: integer('amount').notNull(),
    paid: integer('paid').notNull().default(0),
    description: text('description').notNull().default(''),
    /** 'manual', 'autorenew', ... */
    source: text('source').notNull().default('manual'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id'),
    deleted: boolean('deleted').notNull().default(false),
    /** The MASAV file that collects it (not in test mode). */
    masavFileId: integer('masav_file_id'),
    /** The purchase paid by MASAV this debt collects (source 'masav'), or null. */
    purchaseId: bigint('purchase_id', { mode: 'number' }),
    /** The bank's return reason code when a MASAV debit of it was rejected (docs/money.md "MASAV return file"). */
    returnReason: text('return_reason'),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    foreignKey({
      name: 'debts_client_id_fk',
      columns: [t.clubId, t.clientId],
      foreignColumns: [clients.clubId, clients.id],
    }),
    index('debts_client').on(t.clubId, t.clientId),
  ],
);

/** Every automatic-renewal attempt (seed 001 §4: success or error). */
export const autoRenewLogs = pgTable(
  'auto_renew_logs',
  {
    id: bigserial('id', { mode: 'number' }),
    clubId: integer('club_id').notNull(),
    clientId: integer('client_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    success: boolean('success').notNull(),
    error: text('error'),
    amount: integer('amount').notNull().default(0),
    purchaseId: bigint('purchase_id', { mode: 'number' }),
    debtId: integer('debt_id'),
    startDate: date('start_date'),
    endDate: date('end_date'),
    /** The subscription end this attempt renews: one successful renewal per end date. */
    forEnd: date('for_end'),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    index('auto_renew_logs_club_at').on(t.clubId, t.at),
    index('auto_renew_logs_client').on(t.clubId, t.clientId),
  ],
);

/** Generated MASAV direct-debit files (seed 000 §7 "Masav files"). */
export const masavFiles = pgTable(
  'masav_files',
  {
    id: serial('id'),
    clubId: integer('club_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    testMode: boolean('test_mode').notNull(),
    serial: integer('serial').notNull(),
    valueDate: date('value_date').notNull(),
    count: integer('count').notNull(),
    total: integer('total').notNull(),
    content: bytea('content').notNull(),
    userId: integer('user_id'),
    /** When the bank's return file of this file was read; null until then. */
    returnedAt: timestamp('returned_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.id] }), index('masav_files_club').on(t.clubId, t.createdAt)],
);

/** Money settings of a club kept apart from the general settings: MASAV institution, accounting, invoicing. */
export const clubMoneySettings = pgTable('club_money_settings', {
  clubId: integer('club_id').primaryKey(),
  /** Each of these holds `{}` until first saved ("never saved", not a value). */
  masav: jsonb('masav').$type<Partial<z.infer<typeof MasavSettings>>>().notNull().default({}),
  hashavshevet: jsonb('hashavshevet').$type<Partial<z.infer<typeof HashavshevetDetails>>>().notNull().default({}),
  sumit: jsonb('sumit').$type<Partial<z.infer<typeof SumitSettings>>>().notNull().default({}),
  /** AutoRenewSettings of packages/domain (method, last day of the month rule). */
  autoRenew: jsonb('auto_renew').$type<Partial<AutoRenewSettings>>().notNull().default({}),
  /** Yearly price of one license, minor units. */
  licensePrice: integer('license_price').notNull().default(0),
  /** SMTP settings for sending documents to the invoice e-mail (InvoiceMailSettings; the password AES-GCM encrypted as `passwordEnc`). */
  invoiceMail: jsonb('invoice_mail').$type<Record<string, unknown>>().notNull().default({}),
});

/** License bank-transfer requests (seed 001 §3 "License request", §5 validation). */
export const licenseRequests = pgTable(
  'license_requests',
  {
    id: serial('id'),
    clubId: integer('club_id').notNull(),
    licenseType: smallint('license_type').notNull().default(1),
    quantity: integer('quantity').notNull(),
    price: integer('price').notNull(),
    amount: integer('amount').notNull(),
    transferDate: date('transfer_date').notNull(),
    reference: text('reference').notNull(),
    bankCode: text('bank_code').notNull(),
    /** Encrypted JSON {branch, account}. */
    bankEnc: text('bank_enc').notNull(),
    fileName: text('file_name').notNull(),
    fileType: text('file_type').notNull(),
    file: bytea('file').notNull(),
    /** LicenseRequestStatus of packages/domain. */
    status: smallint('status').notNull().default(1),
    userId: integer('user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The operator's answer (docs/operator.md): who, when, and the reason of a rejection or cancellation. */
    decidedBy: integer('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    reason: text('reason'),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    index('license_requests_club').on(t.clubId, t.createdAt),
    // The operator's queue of every club's requests, pending first (docs/operator.md).
    index('license_requests_status').on(t.status, t.createdAt),
  ],
);

/** License purchases by card through the provider's payment page (POST /api/getBuyLink). */
export const licenseOrders = pgTable(
  'license_orders',
  {
    id: serial('id'),
    clubId: integer('club_id').notNull(),
    code: text('code').notNull(),
    quantity: integer('quantity').notNull(),
    amount: integer('amount').notNull(),
    email: text('email').notNull().default(''),
    customerName: text('customer_name').notNull().default(''),
    /** 'open', 'paid', 'declined'. */
    status: text('status').notNull().default('open'),
    chargeId: bigint('charge_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    // The payment page's return finds the order by its code alone (96 random bits).
    uniqueIndex('license_orders_club_code').on(t.clubId, t.code),
    index('license_orders_code').on(t.code),
  ],
);

// ---------------------------------------------------------------- cash at the terminal (gate operations)

/**
 * Cash held by a terminal (seed 001 §3): payout inventories (coins, bills),
 * the cash box and the excess box; pieces per denomination in agorot.
 */
export const terminalCash = pgTable(
  'terminal_cash',
  {
    terminalId: integer('terminal_id').notNull(),
    clubId: integer('club_id').notNull(),
    coins: jsonb('coins').$type<Inventory>().notNull().default({}),
    bills: jsonb('bills').$type<Inventory>().notNull().default({}),
    cashBox: jsonb('cash_box').$type<Inventory>().notNull().default({}),
    excessAmount: integer('excess_amount').notNull().default(0),
    excessCount: integer('excess_count').notNull().default(0),
    lastResetAt: timestamp('last_reset_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.terminalId] }),
    foreignKey({
      name: 'terminal_cash_terminal_id_fk',
      columns: [t.clubId, t.terminalId],
      foreignColumns: [terminals.clubId, terminals.id],
    }),
  ],
);

/** Cash sessions at a terminal (seed 001 §4): one payment in cash, from begin to closed / canceled / rejected. */
export const cashSessions = pgTable(
  'cash_sessions',
  {
    id: bigserial('id', { mode: 'number' }),
    clubId: integer('club_id').notNull(),
    terminalId: integer('terminal_id').notNull(),
    /** The terminal's own id of the session. */
    sessionId: text('session_id').notNull(),
    clientId: integer('client_id'),
    state: text('state').notNull(),
    amountDue: integer('amount_due'),
    inserted: integer('inserted').notNull().default(0),
    /** Pieces inserted per denomination. */
    pieces: jsonb('pieces').$type<Inventory>().notNull().default({}),
    /** Cash credited: the amount of the purchase the session paid (cash_sessions.purchase_id). */
    credited: integer('credited').notNull().default(0),
    changeDue: integer('change_due').notNull().default(0),
    changePlan: jsonb('change_plan'),
    /** Change that could not be paid out: a payout-error (surplus) purchase owed to the client. */
    unpaid: integer('unpaid').notNull().default(0),
    /** Overpayment kept in the excess box beyond the club's maxCashOverpayment. */
    excess: integer('excess').notNull().default(0),
    error: text('error'),
    /** The purchase the completed session paid (a money load, or the kiosk purchase it paid in cash). */
    purchaseId: bigint('purchase_id', { mode: 'number' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    uniqueIndex('cash_sessions_terminal_session').on(t.clubId, t.terminalId, t.sessionId),
    index('cash_sessions_club_started').on(t.clubId, t.startedAt),
  ],
);

/** Every coin or bill inserted, once per terminal event id (cash transactions). */
export const cashInserts = pgTable(
  'cash_inserts',
  {
    id: bigserial('id', { mode: 'number' }),
    clubId: integer('club_id').notNull(),
    terminalId: integer('terminal_id').notNull(),
    cashSessionId: bigint('cash_session_id', { mode: 'number' }).notNull(),
    eventId: text('event_id').notNull(),
    kind: text('kind').notNull(),
    denomination: integer('denomination').notNull(),
    accepted: boolean('accepted').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    uniqueIndex('cash_inserts_event').on(t.clubId, t.terminalId, t.eventId),
  ],
);

/** Cash box emptied (POST /api/Terminal/CreateResetCashLevels): the cash management report. */
export const cashResets = pgTable(
  'cash_resets',
  {
    id: bigserial('id', { mode: 'number' }),
    clubId: integer('club_id').notNull(),
    terminalId: integer('terminal_id').notNull(),
    userId: integer('user_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    cashBox: jsonb('cash_box').$type<Inventory>().notNull(),
    cashBoxTotal: integer('cash_box_total').notNull(),
    excessAmount: integer('excess_amount').notNull(),
    excessCount: integer('excess_count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.id] }), index('cash_resets_club_at').on(t.clubId, t.at)],
);

/** Products (seed 001 §3 "Product"): sold at terminals and in the console. Price in minor units, VAT included. */
export const products = pgTable(
  'products',
  {
    id: serial('id'),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    name: text('name').notNull(),
    displayName: text('display_name').notNull().default(''),
    description: text('description').notNull().default(''),
    /** ProductType: 1 Basic, 2 Extra, 3 Popup. */
    type: smallint('type').notNull().default(1),
    price: integer('price').notNull(),
    /** Most units in one purchase; 0 = no limit. */
    maxQuantity: integer('max_quantity').notNull().default(0),
    active: boolean('active').notNull().default(true),
    deleted: boolean('deleted').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.id] }), index('products_club').on(t.clubId)],
);

// ---------------------------------------------------------------- messages and incidents (docs/messages.md)

/** Feedback categories of a club (seed 001 §3, seed 000 §7 /FeedbackCategory): what an incident report is about. */
export const feedbackCategories = pgTable(
  'feedback_categories',
  {
    id: serial('id'),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    name: text('name').notNull(),
    /** Terminal mode (seed 000 §3): 'Maintenance' or 'Experience'. */
    type: text('type').notNull(),
    reportingSystemCategoryId: integer('reporting_system_category_id').notNull(),
    defaultSeverityId: integer('default_severity_id').notNull(),
    reportingSystemLocationId: integer('reporting_system_location_id'),
    /** Soft delete: incident reports keep their category. */
    deleted: boolean('deleted').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.id] }), index('feedback_categories_club').on(t.clubId)],
);

/** Global messages of the service operator to clubs (seed 000 §3 "global message"); not owned by one club. */
export const globalMessages = pgTable(
  'global_messages',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    /** Sanitised HTML (docs/messages.md "Sanitising"). */
    body: text('body').notNull().default(''),
    /** 'Basic', 'Extra' or 'Popup' (seed 000 §3 message popup kinds). */
    kind: text('kind').notNull().default('Basic'),
    /** 'all', 'regular', 'usa', 'kala' or 'clubs' (MESSAGE_AUDIENCES). */
    audience: text('audience').notNull().default('all'),
    /** External club ids when the audience is 'clubs'. */
    externalClubIds: jsonb('external_club_ids').$type<number[]>().notNull().default([]),
    publishAt: timestamp('publish_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('global_messages_publish').on(t.publishAt)],
);

/** Read status of a global message per user (seed 000 §3: Unreaded 0 without a row, Readed 1 with one). */
export const globalMessageReads = pgTable(
  'global_message_reads',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => globalMessages.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] }), index('global_message_reads_user').on(t.userId)],
);

/** Incident reports (issue 16, docs/messages.md): a client at a terminal or staff in the console, in a feedback category. */
export const incidents = pgTable(
  'incidents',
  {
    id: serial('id'),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    categoryId: integer('category_id').notNull(),
    /** The category's default severity when reported. */
    severityId: integer('severity_id').notNull(),
    /** 'terminal' or 'console'. */
    source: text('source').notNull(),
    terminalId: integer('terminal_id'),
    /** The terminal's event id: a resent report is stored once. */
    eventId: text('event_id'),
    reportedBy: integer('reported_by'),
    note: text('note').notNull().default(''),
    /** 'open' or 'handled'. */
    status: text('status').notNull().default('open'),
    handledBy: integer('handled_by'),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    foreignKey({
      name: 'incidents_category_id_fk',
      columns: [t.clubId, t.categoryId],
      foreignColumns: [feedbackCategories.clubId, feedbackCategories.id],
    }),
    index('incidents_club_status').on(t.clubId, t.status, t.createdAt),
    uniqueIndex('incidents_terminal_event').on(t.clubId, t.terminalId, t.eventId),
  ],
);

/** The club's webhook to its reporting system (set by the operator; docs/messages.md "Webhook"). */
export const incidentWebhooks = pgTable('incident_webhooks', {
  clubId: integer('club_id')
    .primaryKey()
    .references(() => clubs.id),
  url: text('url').notNull().default(''),
  /** AES-256-GCM (lib/crypto.ts), bound to the club. */
  secretEnc: text('secret_enc'),
  enabled: boolean('enabled').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One incident sent (or to be sent) to the club's reporting system: the delivery log. */
export const incidentDeliveries = pgTable(
  'incident_deliveries',
  {
    id: serial('id'),
    clubId: integer('club_id').notNull(),
    incidentId: integer('incident_id').notNull(),
    /** 'pending', 'delivered' or 'failed'. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    foreignKey({
      name: 'incident_deliveries_incident_id_fk',
      columns: [t.clubId, t.incidentId],
      foreignColumns: [incidents.clubId, incidents.id],
    }),
    index('incident_deliveries_due').on(t.status, t.nextAttemptAt),
    index('incident_deliveries_club').on(t.clubId),
  ],
);

/**
 * Employee positions (seed 001 §3 "Employee position": name, description),
 * named on users (`users.employee_position_id`). `hourly_rate` in agorot
 * (0 = not set) is the payroll report's rate (docs/attendance.md). Deleted for
 * good, and only while no user holds the position.
 */
export const employeePositions = pgTable(
  'employee_positions',
  {
    id: serial('id'),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    hourlyRate: integer('hourly_rate').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.id] }), index('employee_positions_club').on(t.clubId)],
);

/** How a time of an attendance record was written (docs/attendance.md). */
export type AttendanceSource = 'terminal' | 'manual' | 'automatic';

/**
 * Attendance records (seed 001 §3 "Attendance record": client, employee,
 * entry time and terminal, exit time and terminal, comment, automatic flags,
 * modification info). The employee is a client of type Manager or
 * Technician (docs/attendance.md). A record has an entry, an exit or both
 * (seed 001 §5). `original` keeps the record as first written once a person
 * changes it; `modifications` lists every manual change (who, when, before,
 * after).
 */
export const attendanceLogs = pgTable(
  'attendance_logs',
  {
    id: serial('id'),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    clientId: integer('client_id').notNull(),
    entryAt: timestamp('entry_at', { withTimezone: true }),
    entryTerminalId: integer('entry_terminal_id'),
    entrySource: text('entry_source').$type<AttendanceSource>(),
    /** The terminal's event id of a clocking (docs/terminal-protocol.md "Attendance"): a resend answers the same. */
    entryEventId: text('entry_event_id'),
    exitAt: timestamp('exit_at', { withTimezone: true }),
    exitTerminalId: integer('exit_terminal_id'),
    exitSource: text('exit_source').$type<AttendanceSource>(),
    exitEventId: text('exit_event_id'),
    comment: text('comment').notNull().default(''),
    /** The record as first written, kept when a person first changes it; null while unchanged. */
    original: jsonb('original'),
    /** Manual changes, oldest first: {userId, username, at, before, after}. */
    modifications: jsonb('modifications').$type<unknown[]>().notNull().default([]),
    createdByUserId: integer('created_by_user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    foreignKey({
      name: 'attendance_logs_client_id_fk',
      columns: [t.clubId, t.clientId],
      foreignColumns: [clients.clubId, clients.id],
    }),
    foreignKey({
      name: 'attendance_logs_entry_terminal_id_fk',
      columns: [t.clubId, t.entryTerminalId],
      foreignColumns: [terminals.clubId, terminals.id],
    }),
    foreignKey({
      name: 'attendance_logs_exit_terminal_id_fk',
      columns: [t.clubId, t.exitTerminalId],
      foreignColumns: [terminals.clubId, terminals.id],
    }),
    index('attendance_logs_club_entry').on(t.clubId, t.entryAt),
    index('attendance_logs_club_client').on(t.clubId, t.clientId),
    index('attendance_logs_open')
      .on(t.clubId)
      .where(sql`${t.exitAt} is null and ${t.entryAt} is not null`),
  ],
);

/**
 * Terminal software versions the service operator publishes (seed 000 §7
 * GET /Club/GetScriptVersionList; docs/operator.md): not a club's table.
 */
export const scriptVersions = pgTable('script_versions', {
  id: serial('id').primaryKey(),
  /** Version label, unique (`38.1.0`). */
  version: text('version').notNull().unique(),
  notes: text('notes').notNull().default(''),
  /** http(s) address of the version's file. */
  fileUrl: text('file_url').notNull(),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  /** The operator user who published it. */
  createdBy: integer('created_by'),
});

/** Licenses the operator loaded into a club by hand, with the reason (docs/operator.md): a ledger, never updated. */
export const licenseLoads = pgTable(
  'license_loads',
  {
    id: serial('id'),
    clubId: integer('club_id').notNull(),
    quantity: integer('quantity').notNull(),
    reason: text('reason').notNull(),
    /** The operator user. */
    userId: integer('user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.id] }), index('license_loads_club').on(t.clubId, t.createdAt)],
);

/**
 * The outcome of each debt of a sent MASAV file, written when the bank's
 * return file is read (docs/money.md "MASAV return file"): collected, or
 * rejected with the bank's reason code. A collected debt of a MASAV purchase
 * carries the receipt number `onMasavCollected` gave it (its invoice number); the accounting
 * export books the collection (bank ← MASAV account) on `at`.
 */
export const masavResults = pgTable(
  'masav_results',
  {
    clubId: integer('club_id').notNull(),
    id: serial('id').notNull(),
    masavFileId: integer('masav_file_id').notNull(),
    debtId: integer('debt_id').notNull(),
    clientId: integer('client_id').notNull(),
    purchaseId: bigint('purchase_id', { mode: 'number' }),
    /** Minor units. */
    amount: integer('amount').notNull(),
    collected: boolean('collected').notNull(),
    /** The bank's return reason code ('' when collected). */
    reasonCode: text('reason_code').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    receiptNumber: integer('receipt_number'),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    index('masav_results_file').on(t.clubId, t.masavFileId),
    index('masav_results_at').on(t.clubId, t.at),
  ],
);

/**
 * Documents given to customers for purchases (docs/money.md "Documents"): a tax invoice-receipt
 * or a receipt (its number is the purchase's invoice number), a credit invoice or a refund receipt
 * (numbered by document_counters). `snapshot` holds everything printed, frozen at issue, so a
 * reprint is the same document; `prints` counts PDFs made (the first is the original).
 */
export const purchaseDocuments = pgTable(
  'purchase_documents',
  {
    id: serial('id').notNull(),
    clubId: integer('club_id').notNull(),
    purchaseId: bigint('purchase_id', { mode: 'number' }).notNull(),
    /** DocumentKind of packages/domain: 320, 330, 400, 410. */
    kind: smallint('kind').notNull(),
    number: integer('number').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    prints: integer('prints').notNull().default(0),
    lastPrintedAt: timestamp('last_printed_at', { withTimezone: true }),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    userId: integer('user_id'),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    uniqueIndex('purchase_documents_number').on(t.clubId, t.kind, t.number),
    // One sale document per purchase; credit documents, one per refund, are many.
    uniqueIndex('purchase_documents_purchase')
      .on(t.clubId, t.purchaseId, t.kind)
      .where(sql`${t.kind} in (320, 400)`),
  ],
);

/** A refunded line of a purchase_refunds row (packages/domain refund.ts PlannedRefundLine, plus what was undone). */
export interface RefundLineRow {
  key: number;
  itemType: number | null;
  quantity: number;
  amount: number;
  vat: number;
  /** Money-load bonus and kala immersions taken back with this line. */
  bonus?: number;
  immersions?: number;
}

/**
 * Refunds of purchases (issue 18 partial refunds; docs/money.md "Refunds"): one row per refund,
 * full or partial, with what it took of each line and gave back to each payment (minor units), its
 * credit document, and the request's idempotency key. A purchase's refunds sum to at most its total.
 */
export const purchaseRefunds = pgTable(
  'purchase_refunds',
  {
    clubId: integer('club_id').notNull(),
    id: serial('id').notNull(),
    purchaseId: bigint('purchase_id', { mode: 'number' }).notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    userId: integer('user_id'),
    reason: text('reason').notNull().default(''),
    total: integer('total').notNull(),
    beforeVat: integer('before_vat').notNull(),
    vat: integer('vat').notNull(),
    lines: jsonb('lines').$type<RefundLineRow[]>().notNull(),
    /** [{id (purchase_payments row), method, amount, lastFour}]. */
    payments: jsonb('payments').$type<{ id: number; method: number; amount: number; lastFour: string }[]>().notNull(),
    documentId: integer('document_id'),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    uniqueIndex('purchase_refunds_idem').on(t.clubId, t.idempotencyKey),
    index('purchase_refunds_purchase').on(t.clubId, t.purchaseId),
    index('purchase_refunds_at').on(t.clubId, t.at),
    foreignKey({
      name: 'purchase_refunds_purchase_fk',
      columns: [t.clubId, t.purchaseId],
      foreignColumns: [purchases.clubId, purchases.id],
    }),
  ],
);

/** Gap-free numbers of credit documents per club and kind (taken inside the refund's transaction). */
export const documentCounters = pgTable(
  'document_counters',
  {
    clubId: integer('club_id').notNull(),
    kind: smallint('kind').notNull(),
    last: integer('last').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.kind] })],
);

/**
 * The card a club pays the operator with (docs/operator.md "Charging clubs"):
 * the provider's token of the card the club last paid licenses with on the
 * payment page (PCI DSS: token, last four, brand and expiry only). One per club.
 */
export const clubCards = pgTable('club_cards', {
  clubId: integer('club_id')
    .primaryKey()
    .references(() => clubs.id),
  token: text('token').notNull(),
  lastFour: text('last_four').notNull(),
  brand: text('brand').notNull(),
  /** MM/YY. */
  expiry: text('expiry').notNull(),
  savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The operator's yearly license charges of a club (`POST /Club/StartChargeClub`,
 * seed 000 §7; docs/operator.md): one row per attempt, never updated after it
 * settles; the card charge itself is the `charges` row (`charge_id`), whose
 * idempotency key is `club-yearly:<club>:<year>:<attempt>`. Status
 * 'approved', 'declined', 'uncertain' or 'noCard'. Amounts in minor units.
 */
export const clubCharges = pgTable(
  'club_charges',
  {
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    id: serial('id').notNull(),
    /** The license year charged for (Gregorian). */
    year: integer('year').notNull(),
    attempt: integer('attempt').notNull(),
    quantity: integer('quantity').notNull(),
    price: integer('price').notNull(),
    amount: integer('amount').notNull(),
    status: text('status').notNull(),
    error: text('error'),
    chargeId: bigint('charge_id', { mode: 'number' }),
    lastFour: text('last_four').notNull().default(''),
    /** The operator user. */
    userId: integer('user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    uniqueIndex('club_charges_attempt').on(t.clubId, t.year, t.attempt),
    index('club_charges_at').on(t.createdAt),
  ],
);

/**
 * One-time sign-in codes of the member app (docs/members.md "Sign-in"): a
 * hash of the code (HMAC-SHA-256 under the server's key, never the code), the
 * contact (E.164 phone or lower-case e-mail) it was sent to, 10 minutes, 5
 * tries. A contact may be on file in several clubs: the club is chosen after.
 */
export const memberCodes = pgTable(
  'member_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    contact: text('contact').notNull(),
    /** 'sms' or 'email'. */
    channel: text('channel').notNull(),
    codeHash: text('code_hash').notNull(),
    /** The address that asked for it. */
    ip: text('ip').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Wrong codes tried against it; at 5 it is spent. */
    tries: integer('tries').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('member_codes_contact').on(t.contact, t.createdAt)],
);

/**
 * Member sessions (docs/members.md "Session kind"): a kind apart from staff
 * `sessions`; a member token names a row here and reaches only member routes.
 * `club_id`/`client_id` are null until the member picks a club.
 */
export const memberSessions = pgTable(
  'member_sessions',
  {
    id: text('id').primaryKey(),
    contact: text('contact').notNull(),
    clubId: integer('club_id'),
    clientId: integer('client_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason'),
    ip: text('ip').notNull().default(''),
  },
  (t) => [index('member_sessions_contact').on(t.contact)],
);

/**
 * A payment started in the member app on the clearing provider's hosted page
 * (docs/members.md "Paying"): the purchase items it will make, the amount
 * shown on the page (agorot), and how it ended.
 */
export const memberCheckouts = pgTable(
  'member_checkouts',
  {
    clubId: integer('club_id').notNull(),
    id: serial('id'),
    /** Random reference the provider's page and its callback carry (also the purchase's idempotency key). */
    code: text('code').notNull(),
    /** Whose purchase: the member or a child of hers. */
    clientId: integer('client_id').notNull(),
    /** Who pays: the signed-in member. */
    payerClientId: integer('payer_client_id').notNull(),
    /** 'debt', 'load' or 'renew'. */
    kind: text('kind').notNull(),
    items: jsonb('items').notNull(),
    amount: integer('amount').notNull(),
    /** 'pending', 'paid', 'failed'. */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    purchaseId: bigint('purchase_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    // Per club (shard-ready: a unique key includes club_id); the code is 144 random bits, found by itself.
    uniqueIndex('member_checkouts_code').on(t.clubId, t.code),
    index('member_checkouts_client').on(t.clubId, t.payerClientId, t.createdAt),
  ],
);

/**
 * The outbox of notices and member messages (issue 37, docs/notifications.md): one row per e-mail or
 * SMS, queued by `queueMessage`, sent by the delivery worker; the row is its own delivery log.
 * status: 'queued' (waiting, `next_attempt_at` is the earliest send, after a Shabbat/holiday/quiet-hours
 * deferral too), 'sent', 'failed' (given up), 'bounced' (the server or provider refused the address),
 * 'held' (no transport configured: readable in the console only), 'skipped' (the client opted out).
 */
export const notificationOutbox = pgTable(
  'notification_outbox',
  {
    clubId: integer('club_id').notNull(),
    id: serial('id'),
    clientId: integer('client_id'),
    /** 'email' or 'sms'. */
    channel: text('channel').notNull(),
    to: text('to').notNull(),
    /** 'member-code' or a notice kind (domain NOTICE_KINDS). */
    kind: text('kind').notNull(),
    subject: text('subject').notNull().default(''),
    text: text('text').notNull(),
    html: text('html'),
    /** Sent at once, never deferred (sign-in codes). */
    urgent: boolean('urgent').notNull().default(false),
    /** A tax document attached as PDF (purchase_documents.id), or null. */
    documentId: integer('document_id'),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow(),
    /** Why the send was moved later: 'shabbat', 'holiday' or 'quiet'; null when never deferred. */
    deferredReason: text('deferred_reason'),
    lastError: text('last_error'),
    /** The SMTP message id or the SMS provider's id. */
    providerId: text('provider_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    index('notification_outbox_due').on(t.status, t.nextAttemptAt),
    index('notification_outbox_club').on(t.clubId, t.id),
    index('notification_outbox_client').on(t.clubId, t.clientId, t.kind),
  ],
);

/** A client's notification choices (docs/notifications.md "Choices"): edited in the member app and by unsubscribe links. */
export const notificationChoices = pgTable(
  'notification_choices',
  {
    clubId: integer('club_id').notNull(),
    clientId: integer('client_id').notNull(),
    email: boolean('email').notNull().default(true),
    sms: boolean('sms').notNull().default(true),
    /** Notice kinds the client turned off (domain NOTICE_KINDS). */
    offKinds: jsonb('off_kinds').$type<string[]>().notNull().default([]),
    /** 'he' or 'en': the language of the client's notices. */
    lang: text('lang').notNull().default('he'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.clientId] }),
    foreignKey({
      name: 'notification_choices_client_fk',
      columns: [t.clubId, t.clientId],
      foreignColumns: [clients.clubId, clients.id],
    }),
  ],
);

/** A club's own wording of a notice (one per kind, language and channel); none = the built-in default. */
export const notificationTemplates = pgTable(
  'notification_templates',
  {
    clubId: integer('club_id').notNull(),
    kind: text('kind').notNull(),
    lang: text('lang').notNull(),
    channel: text('channel').notNull(),
    subject: text('subject').notNull().default(''),
    body: text('body').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'notification_templates_pk', columns: [t.clubId, t.kind, t.lang, t.channel] })],
);

/** A club's notice settings (NotificationSettings of packages/domain: sender name, quiet hours, days before renewal, …). */
export const notificationSettings = pgTable('notification_settings', {
  clubId: integer('club_id').primaryKey(),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Bookable rooms of a club (issue 38, docs/appointments.md): preparation rooms and immersion pools. */
export const bookingResources = pgTable(
  'booking_resources',
  {
    clubId: integer('club_id').notNull(),
    id: serial('id'),
    name: text('name').notNull(),
    /** 'prepBath' | 'prepShower' | 'pool' (domain BOOKING_RESOURCE_KINDS). */
    kind: text('kind').notNull(),
    serviceMinutes: integer('service_minutes').notNull(),
    bufferMinutes: integer('buffer_minutes').notNull().default(0),
    /** Groups whose members may book it; empty = every group. */
    groupIds: jsonb('group_ids').$type<number[]>().notNull().default([]),
    /** Fee per booking, agorot; 0 = included. */
    fee: integer('fee').notNull().default(0),
    active: boolean('active').notNull().default(true),
    deleted: boolean('deleted').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.id] })],
);

/** The club's booking rules (domain BookingSettings), one row per club. */
export const bookingSettings = pgTable('booking_settings', {
  clubId: integer('club_id').primaryKey(),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Bookings (issue 38). A live booking (status other than 'cancelled') holds its room from `starts_at`
 * to `blocked_until` (its end plus the cleaning buffer): the partial unique index bookings_live_slot
 * and the overlap check under the room's transaction lock keep two from ever holding one room.
 */
export const bookings = pgTable(
  'bookings',
  {
    clubId: integer('club_id').notNull(),
    id: serial('id'),
    resourceId: integer('resource_id').notNull(),
    clientId: integer('client_id').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }).notNull(),
    /** Domain BOOKING_STATUSES. */
    status: text('status').notNull().default('booked'),
    /** 'staff' | 'member' | 'waitlist'. */
    source: text('source').notNull().default('staff'),
    fee: integer('fee').notNull().default(0),
    purchaseId: integer('purchase_id'),
    idempotencyKey: text('idempotency_key'),
    offerExpiresAt: timestamp('offer_expires_at', { withTimezone: true }),
    waitlistId: integer('waitlist_id'),
    /** When the day-before and hour-before reminders are due; null once queued or when none. */
    remindDayAt: timestamp('remind_day_at', { withTimezone: true }),
    remindHourAt: timestamp('remind_hour_at', { withTimezone: true }),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    uniqueIndex('bookings_live_slot')
      .on(t.clubId, t.resourceId, t.startsAt)
      .where(sql`${t.status} <> 'cancelled'`),
    uniqueIndex('bookings_idem')
      .on(t.clubId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} IS NOT NULL`),
    index('bookings_club_time').on(t.clubId, t.startsAt),
    index('bookings_client').on(t.clubId, t.clientId, t.startsAt),
  ],
);

/** The waitlist: a client waiting for a room kind on a club-local date. */
export const bookingWaitlist = pgTable(
  'booking_waitlist',
  {
    clubId: integer('club_id').notNull(),
    id: serial('id'),
    clientId: integer('client_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    /** 'waiting' | 'offered' | 'booked' | 'expired' | 'removed'. */
    status: text('status').notNull().default('waiting'),
    bookingId: integer('booking_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    index('booking_waitlist_date').on(t.clubId, t.date, t.kind, t.status, t.id),
  ],
);

/**
 * One-time gate codes of bookings (docs/appointments.md "The one-time code"): the member app shows the
 * code once; only its keyed HMAC is kept. Valid in the booking's gate window, spent by its admission.
 */
export const bookingGateCodes = pgTable(
  'booking_gate_codes',
  {
    clubId: integer('club_id').notNull(),
    id: serial('id'),
    bookingId: integer('booking_id').notNull(),
    clientId: integer('client_id').notNull(),
    /** HMAC-SHA-256 of the code under a key derived from the server's signing key (hex). */
    codeHash: text('code_hash').notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
    validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
    spentAt: timestamp('spent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    uniqueIndex('booking_gate_codes_hash').on(t.clubId, t.codeHash),
    uniqueIndex('booking_gate_codes_booking').on(t.clubId, t.bookingId),
  ],
);

/** What remains of bookings after the retention period: counts per date, room kind and local hour. */
export const bookingCounts = pgTable(
  'booking_counts',
  {
    clubId: integer('club_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    hour: integer('hour').notNull(),
    bookings: integer('bookings').notNull().default(0),
    noShows: integer('no_shows').notNull().default(0),
    cancelled: integer('cancelled').notNull().default(0),
    fromWaitlist: integer('from_waitlist').notNull().default(0),
    /** Bookings the client came to (checked in or later). */
    attended: integer('attended').notNull().default(0),
    /** Service minutes of the bookings that held a room (the room-use report). */
    minutes: integer('minutes').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.date, t.kind, t.hour] })],
);

/** What remains of the waitlist after the retention period: counts per date and room kind (the waitlist report). */
export const bookingWaitlistCounts = pgTable(
  'booking_waitlist_counts',
  {
    clubId: integer('club_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    joined: integer('joined').notNull().default(0),
    offered: integer('offered').notNull().default(0),
    accepted: integer('accepted').notNull().default(0),
    expired: integer('expired').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'booking_waitlist_counts_pk', columns: [t.clubId, t.date, t.kind] })],
);

// ---------------------------------------------------------------- privacy (issue 39, docs/privacy.md)

/**
 * Reads of one person's data (docs/privacy.md "Who looked"): who (user id and name as then),
 * when, what (`kind`, a PersonalDataKind of packages/domain), about whom (`client_id` when the
 * route names a client; `subject` the route's record, e.g. `purchase:12`), the route and the
 * caller's address. Written by plugins/access-log.ts after a successful answer of a contract
 * route that declares `personalData`; kept 2 years (the retention job), never updated.
 */
export const dataAccessLog = pgTable(
  'data_access_log',
  {
    clubId: integer('club_id').notNull(),
    id: bigserial('id', { mode: 'number' }),
    userId: integer('user_id'),
    username: text('username').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    clientId: integer('client_id'),
    subject: text('subject').notNull().default(''),
    route: text('route').notNull(),
    ip: text('ip').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.id] }),
    index('data_access_log_club_at').on(t.clubId, t.at),
    index('data_access_log_club_client').on(t.clubId, t.clientId, t.at),
    index('data_access_log_club_user_at').on(t.clubId, t.userId, t.at),
  ],
);

/**
 * Runs of the retention job (docs/privacy.md "Retention"): per club, when, the rows removed by
 * table, and the first local day whose entrances were kept in detail (earlier days are the daily
 * counts of activity_daily only; SQL `entrance_detail_from(club)` reads the latest).
 */
export const retentionRuns = pgTable(
  'retention_runs',
  {
    clubId: integer('club_id').notNull(),
    id: serial('id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    entranceDetailFrom: date('entrance_detail_from').notNull(),
    removed: jsonb('removed').$type<Record<string, number>>().notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.id] }), index('retention_runs_club_at').on(t.clubId, t.at)],
);
