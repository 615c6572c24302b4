/**
 * The database definition (issue 39; Privacy Protection Law, Amendment 13, and the Data Security
 * Regulations 2017 reg. 2): for every table of schema.ts, what it is for, what data it holds,
 * whose, who may read it, how long it is kept, which outside processors receive it, and how a
 * client's copy and erasure treat it. `scripts/database-definition.mjs` writes
 * docs/database-definition.md from this map; `data-map.test.ts` fails when a table of the
 * database has no entry (or an entry names no table), when a table with a client column has no
 * `client` rule, and when the committed document differs from the generated one.
 */

/** Outside parties that receive data of a table (docs/privacy.md "Processors"). */
export const PROCESSORS = {
  clearing: 'The card clearing provider (charges, refunds, card tokens): PCI DSS; card numbers never reach us.',
  masav: 'The MASAV bank clearing house (direct-debit files the club uploads to its bank).',
  smtp: "The club's own SMTP server (tax documents e-mailed to the club's invoice address).",
  incidentWebhook: "The club's incident-reporting system (a signed webhook the operator sets).",
  accounting: "The club's accountant (the Hashavshevet/Sumit export files the club downloads).",
  sms: 'The SMS provider (sign-in codes and notices: the phone number and the text).',
  email: 'The e-mail server that sends notices and sign-in codes (the address and the text).',
} as const;
export type Processor = keyof typeof PROCESSORS;

/** Whose data a table holds: none (configuration), staff (users), clients, or clients' sensitive data. */
export type Personal = 'none' | 'staff' | 'client' | 'sensitive';

/**
 * How a client's rows are found (the copy) and what erasure does to them. `columns`: her id in
 * one of these columns; `viaPurchase`: rows of her purchases; `auditOf`: audit rows about her.
 * `erase`: 'pseudonymise' (identifying values replaced, the row kept), 'delete', 'unlink' (her id
 * removed, the row kept without her) or 'keep' (the law requires it; `why` says which).
 */
export type ClientRule =
  | {
      rows: { columns: readonly string[] } | { viaPurchase: true } | { auditOf: 'client' };
      erase: 'pseudonymise' | 'delete' | 'unlink' | 'keep';
      why: string;
      /** Columns the copy shows as withheld: secrets and ciphertexts (docs/privacy.md "A client's copy"). */
      withheld?: readonly string[];
    }
  | {
      /** Left out of the copy on purpose: why (the documented exclusion list). */
      excluded: string;
    };

/** One table's annotation. */
export interface TableAnnotation {
  purpose: string;
  data: string;
  personal: Personal;
  access: string;
  retention: string;
  processors?: readonly Processor[];
  client?: ClientRule;
}

const TAX = '7 years (Income Tax Ordinance §25, bookkeeping regulations): money records are never deleted by retention';
const CONFIG = 'while the club uses the service';
const STAFF = 'club admins (roleIsAdmin)';
const MONEY = 'staff with roleManageClientMoney or a money report permission';
const CLIENTS = 'staff with roleViewClientsList (reads are written to data_access_log)';

/** Every table of the database, by name. */
export const DATA_MAP = {
  clubs: {
    purpose: 'The club (tenant): its name, settings, location and licence pool.',
    data: 'Club name, settings (incl. retention rules), location, dealer number and address.',
    personal: 'none',
    access: 'club staff with roleViewGeneralSettings; the operator',
    retention: CONFIG,
  },
  users: {
    purpose: 'Staff accounts of the console and the service operator.',
    data: 'Username, name, scrypt password hash, language, role, permissions, signed terms.',
    personal: 'staff',
    access: STAFF,
    retention: 'while the account exists; disabled accounts are kept for the audit journal',
  },
  groups: {
    purpose: 'Client groups and their entrance rules.',
    data: 'Group name, entrance state, prices and quotas.',
    personal: 'none',
    access: 'staff with roleViewClientGroupList',
    retention: CONFIG,
  },
  schedules: {
    purpose: 'Opening schedules of groups.',
    data: 'Days, times, halachic offsets, prices.',
    personal: 'none',
    access: 'staff with roleViewClientGroupList',
    retention: CONFIG,
  },
  schedule_to_group: {
    purpose: 'Which schedule applies to which group.',
    data: 'Ids and order.',
    personal: 'none',
    access: 'staff with roleViewClientGroupList',
    retention: CONFIG,
  },
  clients: {
    purpose: 'The members (clients) of the club, and employees clocking attendance.',
    data: 'Name, Israeli ID number, phone, e-mail, city, address, card serial, enrolment code, subscription dates, balances, parent link.',
    personal: 'client',
    access: CLIENTS,
    retention: 'while she is a member; on request erased (pseudonymised) — docs/privacy.md',
    client: {
      rows: { columns: ['id', 'parent_id'] },
      erase: 'pseudonymise',
      why: 'Her row stays (money records name its id) with every identifying value replaced; her children keep their own rows.',
      withheld: ['enroll_password'],
    },
  },
  balance_ledger: {
    purpose: 'Every change of a client balance (money, bonus, temporary, subscription).',
    data: 'Client id, signed amount, source and its id, time, user.',
    personal: 'client',
    access: MONEY,
    retention: TAX,
    client: {
      rows: { columns: ['client_id'] },
      erase: 'keep',
      why: 'A money record (tax law, 7 years); holds her id only.',
    },
  },
  terminals: {
    purpose: 'Gates, kiosks and clocks of the club.',
    data: 'Serial, name, keyed secret hash, settings, connection state.',
    personal: 'none',
    access: 'staff with roleViewTerminals',
    retention: CONFIG,
  },
  client_entry_guard: {
    purpose: "The rapid re-entry guard: a client's last approved entrance (short-lived gate state).",
    data: 'Client id and time.',
    personal: 'sensitive',
    access: 'the gate only',
    retention: 'the entrance retention period (retentionEntranceDays); in visitor mode the decision window',
    client: { rows: { columns: ['client_id'] }, erase: 'delete', why: 'Gate state, no legal duty to keep.' },
  },
  entrance_logs: {
    purpose: 'Every gate decision: the entrance log (special category: when a woman immerses).',
    data: 'Client, payer, terminal, group, time, status, reason, identification kind, amount.',
    personal: 'sensitive',
    access: 'staff with roleEntrancesReport or roleViewClientsList (client history reads are logged)',
    retention:
      'retentionEntranceDays (default 90, at least 30) in detail, then daily counts only (activity_daily); in visitor mode (visitorMode) the decision window only (at least 25 hours, hourly job)',
    client: {
      rows: { columns: ['client_id', 'payer_client_id'] },
      erase: 'unlink',
      why: 'The visit rows stay without her (counts and money totals unchanged); nothing links them to her.',
    },
  },
  entrance_overrides: {
    purpose: 'Entrances admitted from the front desk despite a refusal, with the reason.',
    data: 'Entrance id, user, time, refused status and reason, the reason typed.',
    personal: 'sensitive',
    access: 'staff with roleEntrancesReport',
    retention: 'with its entrance (retentionEntranceDays, or the decision window in visitor mode)',
    client: {
      excluded:
        'Holds no client column: found through her entrances; the copy lists her entrances, erasure clears the typed reason of those.',
    },
  },
  audit_log: {
    purpose: 'The audit journal of staff changes (DESIGN §10).',
    data: 'User, action, entity, before and after values, address, time.',
    personal: 'client',
    access: 'club admins (manager activity report)',
    retention: '7 years (as money records: it explains them)',
    client: {
      rows: { auditOf: 'client' },
      erase: 'pseudonymise',
      why: "Kept (it explains money records) with her name, ID number and phone replaced in every row's values.",
    },
  },
  server_state: {
    purpose: 'Generated secrets and job markers of the server.',
    data: 'Keys and values (JWT and encryption keys, last run days).',
    personal: 'none',
    access: 'the server only',
    retention: CONFIG,
  },
  login_failures: {
    purpose: 'Failed sign-ins for the lockout rule.',
    data: 'Username, address, time.',
    personal: 'staff',
    access: 'the server only',
    retention: 'until the lockout window passes',
  },
  sessions: {
    purpose: 'Sign-in sessions of staff.',
    data: 'User, session id, address, user agent, times.',
    personal: 'staff',
    access: 'the user (own sessions), club admins',
    retention: 'until ended or idle, then deleted',
  },
  biometric_templates: {
    purpose: 'Fingerprint and face templates for identification at the gate (biometric: sensitive).',
    data: 'Client id, AES-256-GCM encrypted template and face image, keyed HMAC index.',
    personal: 'sensitive',
    access: 'the gate (matching); staff with roleViewClientsList see face images (logged)',
    retention: 'while she is a member; retentionBiometricDays (default 30) after she left',
    client: {
      rows: { columns: ['client_id'] },
      erase: 'delete',
      why: 'No duty to keep; terminals are told to drop them.',
      withheld: ['template_enc', 'template_mac', 'image_enc'],
    },
  },
  quick_exits: {
    purpose: 'Quick-exit records (a short stay rewarded).',
    data: 'Client, entrance, terminal, entrance and exit times, reward.',
    personal: 'sensitive',
    access: 'staff with a report permission (quick exit report)',
    retention: 'with its entrance (retentionEntranceDays, or the decision window in visitor mode)',
    client: {
      rows: { columns: ['client_id'] },
      erase: 'delete',
      why: 'Visit detail; the reward itself is a ledger row that stays.',
    },
  },
  terminal_messages: {
    purpose: 'Messages shown on terminals.',
    data: 'Texts and dates.',
    personal: 'none',
    access: 'staff with roleViewTerminalMessages',
    retention: CONFIG,
  },
  invoice_counters: {
    purpose: 'Gap-free invoice numbers.',
    data: 'Last number per club.',
    personal: 'none',
    access: 'the server only',
    retention: TAX,
  },
  purchases: {
    purpose: 'Purchases (sales) of the club.',
    data: 'Client and payer, totals, VAT, payments summary, invoice number, user, terminal.',
    personal: 'client',
    access: MONEY,
    retention: TAX,
    processors: ['accounting'],
    client: {
      rows: { columns: ['client_id', 'payer_client_id'] },
      erase: 'keep',
      why: 'A money record (tax law); holds her id only, her name is in the pseudonymised client row.',
    },
  },
  purchase_items: {
    purpose: 'Lines of a purchase.',
    data: 'Item type, product, quantity, prices, subscription details.',
    personal: 'client',
    access: MONEY,
    retention: TAX,
    processors: ['accounting'],
    client: { rows: { viaPurchase: true }, erase: 'keep', why: 'A money record (tax law).' },
  },
  purchase_payments: {
    purpose: 'Payments of a purchase.',
    data: 'Method, amount, card last four.',
    personal: 'client',
    access: MONEY,
    retention: TAX,
    processors: ['accounting'],
    client: { rows: { viaPurchase: true }, erase: 'keep', why: 'A money record (tax law).' },
  },
  financial_daily: {
    purpose: 'Daily money summary for reports.',
    data: 'Sums per day, terminal, user and key.',
    personal: 'none',
    access: MONEY,
    retention: TAX,
  },
  product_daily: {
    purpose: 'Daily product summary for reports.',
    data: 'Sums per day, product, terminal, user.',
    personal: 'none',
    access: 'staff with roleProductsReport',
    retention: TAX,
  },
  activity_daily: {
    purpose: 'Daily counts of entrances and purchases (what remains of entrances past retention).',
    data: 'Counts and sums per day, terminal, group, status.',
    personal: 'none',
    access: 'staff with a report permission; the dashboard',
    retention: CONFIG,
  },
  activity_daily_delta: {
    purpose: 'Writes to activity_daily not yet compacted (seconds).',
    data: 'As activity_daily.',
    personal: 'none',
    access: 'the server only',
    retention: 'seconds (compacted every 10 s)',
  },
  sandbox_clearing_books: {
    purpose: "The sandbox card provider's own books (test and demo only).",
    data: 'Idempotency keys, amounts, references.',
    personal: 'none',
    access: 'the server only',
    retention: CONFIG,
    processors: ['clearing'],
  },
  charges: {
    purpose: 'Calls to the card clearing provider.',
    data: 'Client, provider token, amount, status, last four, brand.',
    personal: 'client',
    access: MONEY,
    retention: TAX,
    processors: ['clearing'],
    client: {
      rows: { columns: ['client_id'] },
      erase: 'keep',
      why: 'A money record of the provider (tax law, disputes).',
      withheld: ['token'],
    },
  },
  payment_methods: {
    purpose: 'A client payment method: a card token or a MASAV authorisation.',
    data: "Card token, last four, brand, expiry, owner's name and masked ID; encrypted bank details.",
    personal: 'client',
    access: MONEY,
    retention: 'while she is a member and it is not removed',
    processors: ['clearing', 'masav'],
    client: {
      rows: { columns: ['client_id'] },
      erase: 'pseudonymise',
      why: "Marked removed; the token, bank details, owner's name and ID are cleared (renewals stop).",
      withheld: ['card_token', 'bank_enc'],
    },
  },
  debts: {
    purpose: 'Debts of clients.',
    data: 'Client, amount, paid, description, source, MASAV file.',
    personal: 'client',
    access: MONEY,
    retention: TAX,
    client: {
      rows: { columns: ['client_id'] },
      erase: 'keep',
      why: 'Open debts may be collected (the law allows keeping them); paid ones are money records.',
    },
  },
  auto_renew_logs: {
    purpose: 'Every automatic renewal attempt.',
    data: 'Client, success, error, amount, purchase, dates.',
    personal: 'client',
    access: MONEY,
    retention: TAX,
    client: { rows: { columns: ['client_id'] }, erase: 'keep', why: 'Explains money records (tax law).' },
  },
  masav_files: {
    purpose: 'Generated MASAV direct-debit files.',
    data: "File content (payers' bank accounts and names), totals.",
    personal: 'client',
    access: 'staff with roleManageClientMoney',
    retention: TAX,
    processors: ['masav'],
    client: {
      excluded:
        'A file of many payers sent to the bank: a money record kept as sent (tax law); her rows in it are listed by masav_results and debts.',
    },
  },
  club_money_settings: {
    purpose: "The club's MASAV, accounting, invoicing and e-mail settings.",
    data: 'Institution codes, SMTP settings (password encrypted).',
    personal: 'none',
    access: 'staff with roleEditGeneralSettings',
    retention: CONFIG,
    processors: ['smtp', 'masav', 'accounting'],
  },
  license_requests: {
    purpose: "The club's bank-transfer requests for licences (to the operator).",
    data: 'Quantity, amount, transfer reference, encrypted bank details, receipt file.',
    personal: 'none',
    access: 'club admins; the operator',
    retention: TAX,
  },
  license_orders: {
    purpose: "The club's card purchases of licences (to the operator).",
    data: "Quantity, amount, payer's e-mail and name (club staff).",
    personal: 'staff',
    access: 'club admins; the operator',
    retention: TAX,
    processors: ['clearing'],
  },
  terminal_cash: {
    purpose: 'Cash held by each terminal.',
    data: 'Coins, bills, boxes.',
    personal: 'none',
    access: 'staff with roleCashReport',
    retention: CONFIG,
  },
  cash_sessions: {
    purpose: 'Cash payments at terminals.',
    data: 'Client, amounts inserted and paid back, purchase.',
    personal: 'client',
    access: 'staff with roleCashReport',
    retention: TAX,
    client: { rows: { columns: ['client_id'] }, erase: 'keep', why: 'A money record (tax law); her id only.' },
  },
  cash_inserts: {
    purpose: 'Each coin or bill inserted.',
    data: 'Denomination, accepted, time.',
    personal: 'none',
    access: 'staff with roleCashReport',
    retention: TAX,
  },
  cash_resets: {
    purpose: 'Cash boxes emptied.',
    data: 'Contents, user, time.',
    personal: 'none',
    access: 'staff with roleResetCashLevelsReport',
    retention: TAX,
  },
  products: {
    purpose: 'Products sold.',
    data: 'Names, prices, stock.',
    personal: 'none',
    access: 'club staff',
    retention: CONFIG,
  },
  feedback_categories: {
    purpose: 'Categories of incident reports.',
    data: 'Names and codes.',
    personal: 'none',
    access: 'club staff',
    retention: CONFIG,
  },
  global_messages: {
    purpose: "The operator's messages to clubs.",
    data: 'Title, body, audience.',
    personal: 'none',
    access: 'the operator; club staff read them',
    retention: CONFIG,
  },
  global_message_reads: {
    purpose: 'Which user read which message.',
    data: 'Message, user, time.',
    personal: 'staff',
    access: 'the server only',
    retention: CONFIG,
  },
  incidents: {
    purpose: 'Incident reports from terminals and staff.',
    data: 'Category, note, reporting user, terminal, status.',
    personal: 'staff',
    access: 'club staff when incident reports are on',
    retention: '2 years',
    processors: ['incidentWebhook'],
  },
  incident_webhooks: {
    purpose: "The club's reporting-system webhook.",
    data: 'URL and encrypted secret.',
    personal: 'none',
    access: 'the operator',
    retention: CONFIG,
    processors: ['incidentWebhook'],
  },
  incident_deliveries: {
    purpose: 'Deliveries of incidents to the webhook.',
    data: 'Status, attempts, errors.',
    personal: 'none',
    access: 'the operator',
    retention: '2 years',
    processors: ['incidentWebhook'],
  },
  employee_positions: {
    purpose: 'Employee positions and hourly rates.',
    data: 'Name, description, rate.',
    personal: 'none',
    access: 'staff with roleEditEmployeePositions',
    retention: CONFIG,
  },
  attendance_logs: {
    purpose: 'Attendance (clock in/out) of employees, for payroll.',
    data: 'Employee (a client of type manager or technician), times, terminals, comments, changes.',
    personal: 'client',
    access: 'staff with roleViewAttendanceLogs',
    retention: 'retentionAttendanceDays (default 7 years: Wage Protection Law §25, payroll records)',
    client: {
      rows: { columns: ['client_id'] },
      erase: 'keep',
      why: 'Payroll records of an employee: kept as the law requires (retention removes them after the period).',
    },
  },
  script_versions: {
    purpose: 'Terminal software versions the operator publishes.',
    data: 'Version, notes, file address.',
    personal: 'none',
    access: 'the operator',
    retention: CONFIG,
  },
  license_loads: {
    purpose: 'Licences loaded by the operator by hand.',
    data: 'Quantity, reason, user.',
    personal: 'none',
    access: 'the operator; club admins',
    retention: TAX,
  },
  masav_results: {
    purpose: "Outcomes of a MASAV file's debits (the bank's return file).",
    data: 'Client, debt, amount, collected, reason code, receipt number.',
    personal: 'client',
    access: 'staff with roleManageClientMoney',
    retention: TAX,
    processors: ['masav'],
    client: { rows: { columns: ['client_id'] }, erase: 'keep', why: 'A money record (tax law); her id only.' },
  },
  purchase_documents: {
    purpose: 'Tax documents issued (invoice-receipts, receipts, credit documents).',
    data: "Kind, number, snapshot of everything printed (incl. the customer's name and ID).",
    personal: 'client',
    access: 'staff with roleViewClientsList (reads are logged)',
    retention: TAX,
    processors: ['smtp', 'accounting'],
    client: {
      rows: { viaPurchase: true },
      erase: 'keep',
      why: 'Tax documents must be kept unchanged 7 years (VAT Law, bookkeeping regulations): the only place her name stays.',
    },
  },
  purchase_refunds: {
    purpose: 'Refunds of purchases.',
    data: 'Lines and payments refunded, reason, user.',
    personal: 'client',
    access: MONEY,
    retention: TAX,
    client: { rows: { viaPurchase: true }, erase: 'keep', why: 'A money record (tax law).' },
  },
  document_counters: {
    purpose: 'Gap-free numbers of credit documents.',
    data: 'Last number per kind.',
    personal: 'none',
    access: 'the server only',
    retention: TAX,
  },
  club_cards: {
    purpose: 'The card a club pays the operator with.',
    data: 'Provider token, last four, brand, expiry.',
    personal: 'none',
    access: 'the operator',
    retention: 'while the club is a customer',
    processors: ['clearing'],
  },
  club_charges: {
    purpose: "The operator's yearly licence charges of clubs.",
    data: 'Year, amount, status, last four.',
    personal: 'none',
    access: 'the operator',
    retention: TAX,
    processors: ['clearing'],
  },
  member_codes: {
    purpose: 'One-time sign-in codes of the member app.',
    data: 'Phone or e-mail it was sent to, keyed hash of the code, address, times, tries.',
    personal: 'client',
    access: 'the server only',
    retention: '10 minutes valid; kept for rate limits',
    processors: ['sms', 'email'],
    client: {
      excluded:
        'Holds no client column (a contact, before she is known): erasure deletes the codes sent to her phone or e-mail.',
    },
  },
  member_sessions: {
    purpose: 'Sign-in sessions of the member app.',
    data: 'Contact, club, client, address, times.',
    personal: 'client',
    access: 'the member (own sessions)',
    retention: 'until ended or expired',
    client: { rows: { columns: ['client_id'] }, erase: 'delete', why: 'Sessions: no duty to keep.' },
  },
  member_checkouts: {
    purpose: "Payments a member starts in the app on the provider's page.",
    data: 'Client and payer, kind, items, amount, status, purchase.',
    personal: 'client',
    access: MONEY,
    retention: TAX,
    processors: ['clearing'],
    client: {
      rows: { columns: ['client_id', 'payer_client_id'] },
      erase: 'keep',
      why: 'A money record (tax law); her ids only.',
    },
  },
  notification_outbox: {
    purpose: 'E-mails and SMS to clients (notices, sign-in codes): the delivery log.',
    data: 'Client, channel, address, subject, text, status, provider id.',
    personal: 'client',
    access: 'club admins',
    retention: 'while the club uses the service',
    processors: ['sms', 'email'],
    client: {
      rows: { columns: ['client_id'] },
      erase: 'pseudonymise',
      why: 'Queued messages to her are deleted; sent ones stay as the delivery log with her address, name and phone replaced.',
    },
  },
  notification_choices: {
    purpose: "A client's notification choices.",
    data: 'Channels on, kinds off, language.',
    personal: 'client',
    access: 'the member; club staff',
    retention: 'while she is a member',
    client: { rows: { columns: ['client_id'] }, erase: 'delete', why: 'Her preferences: no duty to keep.' },
  },
  notification_templates: {
    purpose: "A club's own wording of notices.",
    data: 'Kind, language, channel, subject, body.',
    personal: 'none',
    access: 'club admins',
    retention: CONFIG,
  },
  notification_settings: {
    purpose: "A club's notification settings.",
    data: 'Channels, quiet hours, provider settings.',
    personal: 'none',
    access: 'club admins',
    retention: CONFIG,
    processors: ['sms', 'email'],
  },
  club_safety: {
    purpose: "The club's emergency state (docs/gate-safety.md): open-all and lockdown, with who set them and why.",
    data: 'Mode, reason, user or terminal that raised it, times.',
    personal: 'staff',
    access: 'staff with roleEmergencyOpenAll or roleLockdown; every console of the club sees the banner',
    retention: CONFIG,
  },
  lockdown_overrides: {
    purpose: 'Clients (staff cards: attendants, security) who pass a lockdown (docs/gate-safety.md).',
    data: 'Client, the user who granted it, when.',
    personal: 'client',
    access: 'staff with roleLockdown',
    retention: 'until revoked',
    client: { rows: { columns: ['client_id'] }, erase: 'delete', why: 'A permission of hers; nothing to keep.' },
  },
  gate_areas: {
    purpose: 'Areas of the club (entrance hall, pool, immersion rooms) with capacity, maximum stay, anti-passback.',
    data: 'Names and limits.',
    personal: 'none',
    access: 'staff with roleViewTerminals',
    retention: CONFIG,
  },
  gate_area_terminals: {
    purpose: 'Which terminal leads into which area.',
    data: 'Terminal and area ids.',
    personal: 'none',
    access: 'staff with roleViewTerminals',
    retention: CONFIG,
  },
  area_presence: {
    purpose: 'Who is inside an area now, and each stay (live occupancy, anti-passback; docs/gate-safety.md).',
    data: 'Client, area, terminal, entered and left times, how the stay ended, flags (special category: an immersion room).',
    personal: 'sensitive',
    access: 'staff who may see clients (names); counts to every console of the club',
    retention:
      'closed stays: with the entrance detail (retentionEntranceDays, nightly job; in visitor mode the decision window, hourly); open stays until they end',
    client: {
      rows: { columns: ['client_id'] },
      erase: 'delete',
      why: 'Visit detail; the counts of the day are in the entrance summaries.',
    },
  },
  booking_resources: {
    purpose: 'Bookable rooms and pools (docs/appointments.md): kind, service length, buffer, who may book, fee.',
    data: 'Names, minutes, group ids, fee in agorot.',
    personal: 'none',
    access: 'staff with roleManageBookings',
    retention: CONFIG,
  },
  booking_settings: {
    purpose: "The club's booking rules: cutoff, gate window, booking retention.",
    data: 'Settings.',
    personal: 'none',
    access: 'staff with roleManageBookings',
    retention: CONFIG,
  },
  bookings: {
    purpose: 'Immersion appointments (special category: when a woman immerses; docs/appointments.md "Privacy").',
    data: 'Client, room, start and end, state, source, fee and purchase, reminder times.',
    personal: 'sensitive',
    access: 'staff with roleManageBookings (full names with roleViewBookingNames); the member herself',
    retention:
      'booking retention (default 30 days after the visit; the appointments job hourly and the nightly retention job), then hourly counts only (booking_counts)',
    client: {
      rows: { columns: ['client_id'] },
      erase: 'delete',
      why: 'Visit detail; a fee paid is its purchase, which stays (tax).',
    },
  },
  booking_waitlist: {
    purpose: 'Members waiting for a freed slot on a date and room kind.',
    data: 'Client, date, room kind, state, the booking offered.',
    personal: 'sensitive',
    access: 'staff with roleManageBookings',
    retention: 'with the bookings (booking retention)',
    client: { rows: { columns: ['client_id'] }, erase: 'delete', why: 'Visit detail.' },
  },
  booking_gate_codes: {
    purpose: 'One-time gate codes of members\' bookings (docs/appointments.md "The one-time code").',
    data: 'Booking, client, the code as a keyed HMAC only, its window, when it was spent.',
    personal: 'sensitive',
    access: 'the gate (by the code); the member who asked for it sees the code once',
    retention: 'with the bookings (booking retention)',
    client: { rows: { columns: ['client_id'] }, erase: 'delete', why: 'Visit detail.' },
  },
  booking_counts: {
    purpose: 'What remains of bookings past retention: counts per date, room kind and hour.',
    data: 'Counts only.',
    personal: 'none',
    access: 'staff with roleManageBookings (booking reports)',
    retention: 'kept (counts only, no person)',
  },
  booking_waitlist_counts: {
    purpose: 'What remains of the waitlist past retention: counts per date and room kind.',
    data: 'Counts only.',
    personal: 'none',
    access: 'staff with roleManageBookings (booking reports)',
    retention: 'kept (counts only, no person)',
  },
  data_access_log: {
    purpose: "Who read a person's data: the access log (Data Security Regulations reg. 10).",
    data: 'User, time, kind of data, client, record, route, address.',
    personal: 'client',
    access: 'the security officer (roleSecurityOfficer)',
    retention: '2 years (reg. 10(c): at least 24 months)',
    client: {
      rows: { columns: ['client_id'] },
      erase: 'keep',
      why: 'The regulations require keeping it; it holds her id only.',
    },
  },
  retention_runs: {
    purpose: 'What each run of the retention job removed.',
    data: 'Time, counts by table, the entrance horizon.',
    personal: 'none',
    access: 'staff with roleViewGeneralSettings',
    retention: CONFIG,
  },
} as const satisfies Record<string, TableAnnotation>;

export type TableName = keyof typeof DATA_MAP;
