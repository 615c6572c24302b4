import { sql } from 'drizzle-orm';
import {
  bigserial,
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

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
  settings: jsonb('settings').notNull().default({}),
  /** ClubLocation for zmanim; null = Jerusalem. */
  location: jsonb('location'),
  /** Named capacities (GET /Club/GetCapacities), e.g. products: [{name, capacity}]. */
  capacities: jsonb('capacities').notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
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
    permissions: jsonb('permissions').notNull().default({}),
    termsVersion: integer('terms_version').notNull().default(0),
    dataGridStates: jsonb('data_grid_states').notNull().default({}),
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
    id: serial('id').primaryKey(),
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
  (t) => [index('groups_club').on(t.clubId)],
);

/**
 * Schedule rows (seed 001 §3 "Schedule entry"). A row with a group belongs to
 * that group's times-and-prices list; a row without one is a general schedule,
 * linked to groups through schedule_to_group.
 */
export const schedules = pgTable(
  'schedules',
  {
    id: serial('id').primaryKey(),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    groupId: integer('group_id').references(() => groups.id),
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
  (t) => [index('schedules_group').on(t.clubId, t.groupId)],
);

export const scheduleToGroup = pgTable('schedule_to_group', {
  id: serial('id').primaryKey(),
  clubId: integer('club_id')
    .notNull()
    .references(() => clubs.id),
  scheduleId: integer('schedule_id')
    .notNull()
    .references(() => schedules.id),
  groupId: integer('group_id')
    .notNull()
    .references(() => groups.id),
});

export const clients = pgTable(
  'clients',
  {
    id: serial('id').primaryKey(),
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
    city: text('city').notNull().default(''),
    address: text('address').notNull().default(''),
    groupId: integer('group_id').references(() => groups.id),
    clientType: smallint('client_type').notNull().default(1),
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
    /** Enrolment allowances at a terminal (seed 001 §3); the club's self-registration settings apply too. */
    allowEnrollFingerprint: boolean('allow_enroll_fingerprint').notNull().default(true),
    allowEnrollCard: boolean('allow_enroll_card').notNull().default(true),
    allowEnrollFace: boolean('allow_enroll_face').notNull().default(true),
    /** The code a client types at a terminal to enrol a fingerprint, card or face (seed 001 §3); '' = none. */
    enrollPassword: text('enroll_password').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('clients_club_number').on(t.clubId, t.number),
    uniqueIndex('clients_club_card')
      .on(t.clubId, t.cardSerial)
      .where(sql`${t.cardSerial} <> '' and ${t.status} <> 3`),
    index('clients_club_name').on(t.clubId, t.lastName, t.firstName),
    index('clients_club_personal_id').on(t.clubId, t.personalId),
    index('clients_club_phone').on(t.clubId, t.phone),
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
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clubId: integer('club_id').notNull(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
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
  (t) => [index('balance_ledger_client').on(t.clientId)],
);

export const terminals = pgTable(
  'terminals',
  {
    id: serial('id').primaryKey(),
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
    settings: jsonb('settings').notNull().default({}),
    lastConnection: timestamp('last_connection', { withTimezone: true }),
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [uniqueIndex('terminals_serial').on(t.serial)],
);

/** Entrance log: one row per decision (seed 000 §4 statuses). */
export const entranceLogs = pgTable(
  'entrance_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
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
  },
  (t) => [
    index('entrance_logs_club_at').on(t.clubId, t.at),
    index('entrance_logs_client_at').on(t.clientId, t.at),
    uniqueIndex('entrance_logs_event').on(t.terminalId, t.eventId),
  ],
);

/** Audit rows of staff changes (DESIGN §10): who, what, when, from where, before and after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clubId: integer('club_id'),
    userId: integer('user_id'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_club_at').on(t.clubId, t.at)],
);

/** Small key-value store for server state (generated secrets, demo flags). */
export const serverState = pgTable('server_state', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

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
    id: serial('id').primaryKey(),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
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
    uniqueIndex('biometric_templates_mac').on(t.clubId, t.kind, t.templateMac),
    index('biometric_templates_client').on(t.clubId, t.clientId),
  ],
);

/** Quick-exit records (seed 001 §3 "Quick-exit record", §4 outcomes). One per entrance. */
export const quickExits = pgTable(
  'quick_exits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
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
    uniqueIndex('quick_exits_entrance').on(t.entranceId),
    uniqueIndex('quick_exits_event').on(t.terminalId, t.eventId),
    index('quick_exits_club_exit').on(t.clubId, t.exitAt),
  ],
);

/** Terminal messages (seed 001 §3): shown by the club's terminals between their dates while active. */
export const terminalMessages = pgTable(
  'terminal_messages',
  {
    id: serial('id').primaryKey(),
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
  (t) => [index('terminal_messages_club').on(t.clubId)],
);
