import path from 'node:path';

/** The repository root: `data/` lives there whichever workspace npm started in. */
const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Server configuration from environment variables, with safe defaults
 * (DESIGN §4). Documented in the README's "Configuration" table.
 */
export interface Config {
  /** HTTP port (PORT, default 3000). */
  port: number;
  host: string;
  /** PostgreSQL connection string (DATABASE_URL); unset = embedded PGlite. */
  databaseUrl?: string;
  /**
   * A streaming replica of DATABASE_URL (DATABASE_REPLICA_URL): reports, exports and the
   * dashboard read from it while it is at most `replicaMaxStalenessMs` behind (docs/scaling.md).
   */
  replicaUrl?: string;
  /** Oldest a replica read may be, ms (REPLICA_MAX_STALENESS_MS, default 30 000). */
  replicaMaxStalenessMs: number;
  /** Directory of the embedded database and generated files (DATA_DIR, default <repo>/data; relative paths from where npm was run). */
  dataDir: string;
  /** Production mode (NODE_ENV=production or VENUE_PRODUCTION=1): no demo club, no default account. */
  production: boolean;
  /** Lifetime of a sign-in token in seconds (TOKEN_TTL_SECONDS, default 12 h). */
  tokenTtlSeconds: number;
  /**
   * A session without a request for this long ends (SESSION_IDLE_SECONDS, default
   * 1800 = 30 min; docs/security.md "Sessions"). The console signs out after the
   * same time without the user's input.
   */
  sessionIdleSeconds: number;
  /** Where the built console is (WEB_DIST); served at / when it exists. */
  webDist?: string;
  /** Login attempts allowed per username and address per minute (LOGIN_RATE_LIMIT, default 10). */
  loginRateLimit: number;
  /**
   * Proxies whose X-Forwarded-For is believed (TRUST_PROXY): a comma-separated
   * list of addresses or CIDR ranges, e.g. `127.0.0.1,10.0.0.0/8`; unset = none,
   * the caller's address is the socket's (docs/security.md "Proxies").
   */
  trustProxy?: string[];
  /** Demo club size (DEMO_CLIENTS, default 2000) and days of history (DEMO_DAYS, default 365). */
  demoClients: number;
  demoDays: number;
  /**
   * When the demo's year of history is written on a first start (DEMO_HISTORY):
   * 'background' (default) after the server listens, 'wait' before (the browser
   * tests: they assert the full demo). docs/demo-club.md "First start".
   */
  demoHistory: 'background' | 'wait';
  logLevel: string;
  /**
   * Password of the maintenance query `POST /Db/ExecuteSql` (MAINTENANCE_PASSWORD,
   * at least 12 characters); unset = the call answers 404 (DESIGN §10, docs/operator.md).
   */
  maintenancePassword?: string;
  /**
   * Connection string of the maintenance query's own PostgreSQL role (MAINTENANCE_DATABASE_URL): a login
   * role that only reads (docs/operator.md "Maintenance query"); unset = the call answers 404.
   */
  maintenanceDatabaseUrl?: string;
  /**
   * Whether the seed's sign-in link (`/login?userName=&password=&externalClubId=`, seed 000 §2) signs in by
   * itself (URL_SIGN_IN=1); default on outside production, off in production, where the link only fills
   * the form (docs/security.md "Logs").
   */
  urlSignIn: boolean;
  /**
   * Addresses outside the public internet the incident webhook may reach (WEBHOOK_ALLOW_ADDRESSES,
   * comma-separated CIDRs or addresses, for an on-premise receiver); default none
   * (docs/security.md "Outgoing requests").
   */
  webhookAllow?: string[];
  /**
   * Bearer token of `GET /metrics` on the public port (METRICS_TOKEN, at least 32 characters); unset
   * or shorter = the public port answers 404 there (docs/operations.md "Metrics").
   */
  metricsToken?: string;
  /** A port of its own for `GET /metrics` (METRICS_PORT); unset = none. */
  metricsPort?: number;
  /** Address the metrics port listens on (METRICS_HOST, default 127.0.0.1: this host only). */
  metricsHost: string;
  /**
   * Seconds an approved card charge may stay without its purchase before the reconciliation gives
   * the money back (ORPHAN_CHARGE_SECONDS, default 600; docs/money.md "Through crashes").
   */
  orphanChargeSeconds: number;
  /**
   * The sandbox card provider's answer time (SANDBOX_LATENCY_MS, default 0): a real provider
   * answers in 0.5–3 s; a test or a fault run sets it to widen the window a crash can hit.
   */
  sandboxLatencyMs: number;
  /**
   * Where notices and member sign-in codes go (docs/notifications.md "Install settings"): SMTP and an SMS
   * provider set by the operator for the whole install; unset = every message stays in the outbox
   * (status held), readable in the console.
   */
  notify: NotifyConfig;
}

/** The install's outgoing-message settings (from the environment; docs/notifications.md). */
export interface NotifyConfig {
  /** SMTP_HOST, SMTP_PORT (587), SMTP_SECURE (1 = TLS from the start), SMTP_USER, SMTP_PASSWORD, SMTP_FROM (the sender address). */
  smtp?: { host: string; port: number; secure: boolean; user?: string; pass?: string; from: string };
  /** DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY (PEM; `\n` for new lines): signs every e-mail when all three are set. */
  dkim?: { domainName: string; keySelector: string; privateKey: string };
  /** SMS_PROVIDER (inforu), SMS_API_URL (the provider's endpoint), SMS_USER, SMS_TOKEN, SMS_SENDER (default sender id). */
  sms?: { provider: 'inforu'; url: string; user: string; token: string; sender: string };
  /** The address members reach the server at, for links in messages (PUBLIC_URL, default http://localhost:<port>). */
  publicUrl: string;
  /** How often due messages are sent, ms (NOTIFY_TICK_MS, default 5 000; 0 = off). */
  tickMs: number;
}

/** The install's outgoing-message settings from the environment (see NotifyConfig). */
export function loadNotifyConfig(env: NodeJS.ProcessEnv, port: number): NotifyConfig {
  const from = env.SMTP_FROM || (env.SMTP_USER?.includes('@') ? env.SMTP_USER : '');
  return {
    smtp: env.SMTP_HOST
      ? {
          host: env.SMTP_HOST,
          port: Number(env.SMTP_PORT ?? 587),
          secure: env.SMTP_SECURE === '1' || env.SMTP_SECURE === 'true',
          user: env.SMTP_USER || undefined,
          pass: env.SMTP_PASSWORD || undefined,
          from: from || `no-reply@${env.SMTP_HOST}`,
        }
      : undefined,
    dkim:
      env.DKIM_DOMAIN && env.DKIM_SELECTOR && env.DKIM_PRIVATE_KEY
        ? {
            domainName: env.DKIM_DOMAIN,
            keySelector: env.DKIM_SELECTOR,
            privateKey: env.DKIM_PRIVATE_KEY.replace(/\\n/g, '\n'),
          }
        : undefined,
    sms:
      env.SMS_PROVIDER === 'inforu' && env.SMS_USER && env.SMS_TOKEN
        ? {
            provider: 'inforu',
            url: env.SMS_API_URL || 'https://capi.inforu.co.il/api/v2/SMS/SendSms',
            user: env.SMS_USER,
            token: env.SMS_TOKEN,
            sender: env.SMS_SENDER || 'Venue',
          }
        : undefined,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    tickMs: positive(env.NOTIFY_TICK_MS, 5_000),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production' || env.VENUE_PRODUCTION === '1';
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    replicaUrl: env.DATABASE_REPLICA_URL || undefined,
    replicaMaxStalenessMs: Number(env.REPLICA_MAX_STALENESS_MS ?? 30_000),
    dataDir: path.resolve(env.INIT_CWD ?? process.cwd(), env.DATA_DIR ?? path.join(REPO_ROOT, 'data')),
    production,
    tokenTtlSeconds: Number(env.TOKEN_TTL_SECONDS ?? 12 * 3600),
    sessionIdleSeconds: Number(env.SESSION_IDLE_SECONDS ?? 30 * 60),
    webDist: env.WEB_DIST,
    loginRateLimit: Number(env.LOGIN_RATE_LIMIT ?? 10),
    trustProxy: parseList(env.TRUST_PROXY),
    demoClients: Number(env.DEMO_CLIENTS ?? 2000),
    demoDays: Number(env.DEMO_DAYS ?? 365),
    demoHistory: env.DEMO_HISTORY === 'wait' ? 'wait' : 'background',
    logLevel: env.LOG_LEVEL ?? 'info',
    maintenancePassword:
      env.MAINTENANCE_PASSWORD && env.MAINTENANCE_PASSWORD.length >= 12 ? env.MAINTENANCE_PASSWORD : undefined,
    webhookAllow: parseList(env.WEBHOOK_ALLOW_ADDRESSES),
    maintenanceDatabaseUrl: env.MAINTENANCE_DATABASE_URL || undefined,
    urlSignIn: env.URL_SIGN_IN ? env.URL_SIGN_IN === '1' : !production,
    metricsToken: env.METRICS_TOKEN && env.METRICS_TOKEN.length >= MIN_METRICS_TOKEN ? env.METRICS_TOKEN : undefined,
    metricsPort: env.METRICS_PORT ? Number(env.METRICS_PORT) : undefined,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    orphanChargeSeconds: Math.max(1, positive(env.ORPHAN_CHARGE_SECONDS, DEFAULT_ORPHAN_CHARGE_SECONDS)),
    sandboxLatencyMs: positive(env.SANDBOX_LATENCY_MS, 0),
    notify: loadNotifyConfig(env, Number(env.PORT ?? 3000)),
  };
}

/** Shortest METRICS_TOKEN accepted (characters; `openssl rand -base64 32` gives 44). */
export const MIN_METRICS_TOKEN = 32;
/** Default wait before an approved charge without its purchase is refunded (seconds). */
export const DEFAULT_ORPHAN_CHARGE_SECONDS = 600;

/** A whole number ≥ 0 from the environment, or `fallback` when unset or not one. */
function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value != null && value !== '' && Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** A comma-separated list, or undefined when unset or empty. */
function parseList(value: string | undefined): string[] | undefined {
  const items = (value ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
}
