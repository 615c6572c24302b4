import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { allPermissions, UserLevel, type Permissions } from '@venue/domain';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/index.js';
import { clubs, users } from '../src/db/schema.js';
import { hashPassword } from '../src/lib/password.js';
import { EventBus } from '../src/lib/event-bus.js';

/**
 * Test harness: a real database (PGlite in memory, or a fresh PostgreSQL
 * database when TEST_DB=postgres) and the app driven through `app.inject`.
 */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  bus: EventBus;
  close(): Promise<void>;
}

/** The migrated PGlite data directory of this run (test/global-setup.ts), read once per worker. */
let snapshot: Blob | undefined;
function pgliteSnapshot(): Blob | undefined {
  const file = inject('pgliteSnapshot');
  if (!file) return undefined;
  snapshot ??= new Blob([readFileSync(file)]);
  return snapshot;
}

/**
 * Opens an empty migrated database of the kind under test: PGlite from the
 * run's migrated snapshot, or a PostgreSQL database cloned from the run's
 * migrated template (test/global-setup.ts; both migrate from scratch when
 * run without it).
 */
export async function openTestDatabase(): Promise<Database & { dropAll(): Promise<void> }> {
  if (TEST_DB === 'pglite') {
    const d = await openDatabase({ dataDir: 'memory://', pgliteSnapshot: pgliteSnapshot() });
    return { ...d, dropAll: async () => d.close() };
  }
  const { default: pg } = await import('pg');
  const name = `venue_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = inject('pgTemplate');
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await createDatabase(admin, name, template);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const d = await openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
  return {
    ...d,
    dropAll: async () => {
      await d.close();
      const a = new pg.Client({ connectionString: PG_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/**
 * CREATE DATABASE, from the migrated template when there is one. Two workers
 * copying the same template at once can meet PostgreSQL's "source database is
 * being accessed by other users" (SQLSTATE 55006): the copy is tried again.
 */
async function createDatabase(admin: import('pg').Client, name: string, template: string | undefined): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
}

/** Builds the app on a fresh database. */
export async function createTestApp(over: Partial<Config> = {}): Promise<TestContext> {
  const database = await openTestDatabase();
  const config = { ...loadConfig({}), logLevel: 'silent', loginRateLimit: 1000, ...over };
  const bus = new EventBus();
  const app = await buildApp({ config, database, bus });
  await app.ready();
  return {
    app,
    database,
    bus,
    close: async () => {
      await app.close();
      await database.dropAll();
    },
  };
}

let clubSeq = 2000 + Math.floor(Math.random() * 1000);

/**
 * The dealer's identity every test club has unless its settings say otherwise: a check-digit-valid
 * number and an address, without which an Israeli club sells nothing (docs/money.md "The dealer's
 * identity on tax documents"). A test of a club without them passes e.g. `{companyNumber: ''}`.
 */
export const TEST_DEALER = {
  companyNumber: '514123454',
  addressCity: 'ירושלים',
  addressStreet: 'רחוב הבדיקה',
  addressHouseNumber: '7',
} as const;

/** Creates a club (Israel by default, with TEST_DEALER under the given settings). */
export async function makeClub(
  ctx: TestContext,
  opts: { externalClubId?: number; licensesAmount?: number; settings?: object; capacities?: object[] } = {},
) {
  const [club] = await ctx.database.db
    .insert(clubs)
    .values({
      externalClubId: opts.externalClubId ?? clubSeq++,
      name: 'Test club',
      licensesAmount: opts.licensesAmount ?? 100,
      settings: { ...TEST_DEALER, ...opts.settings },
      capacities: opts.capacities ?? [],
    })
    .returning();
  return club;
}

// One hash for every test user: scrypt is deliberately slow.
let pwHash: Promise<string> | undefined;
export const TEST_PASSWORD = 'test-pass-123';

export async function makeUser(
  ctx: TestContext,
  clubId: number | null,
  opts: { username?: string; isAdmin?: boolean; permissions?: Partial<Permissions>; level?: number } = {},
) {
  pwHash ??= hashPassword(TEST_PASSWORD);
  const [u] = await ctx.database.db
    .insert(users)
    .values({
      clubId,
      username: opts.username ?? `user${randomBytes(3).toString('hex')}`,
      passwordHash: await pwHash,
      name: 'Test user',
      isAdmin: opts.isAdmin ?? false,
      level: opts.level ?? 0,
      permissions: { ...allPermissions(false), ...opts.permissions },
      termsVersion: 1,
    })
    .returning();
  return u;
}

// Factories of the other tables (and validPersonalId, makeOpenGate) live in factories.ts.
export { makeOpenGate, validPersonalId } from './factories.js';

/** An API caller: carries the bearer token, the club header and the anti-forgery pair. */
export class Api {
  token?: string;
  /** The socket address the requests come from (default 127.0.0.1). */
  remoteAddress?: string;
  private csrfCookie = '';
  private xsrf = '';
  constructor(private readonly app: FastifyInstance) {}

  private async ensureCsrf(): Promise<void> {
    if (this.xsrf) return;
    const res = await this.app.inject({ method: 'GET', url: '/api/health' });
    const cookies = res.cookies as { name: string; value: string }[];
    this.xsrf = cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    const secret = cookies.find((c) => c.name === '_csrf')?.value ?? '';
    this.csrfCookie = `_csrf=${secret}; XSRF-TOKEN=${this.xsrf}`;
  }

  async login(username: string, password: string, externalClubId: number): Promise<LightMyRequestResponse> {
    const res = await this.request('POST', '/api/Account', { username, password, externalClubId });
    if (res.statusCode === 200) this.token = res.json().token;
    return res;
  }

  async request(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    await this.ensureCsrf();
    return this.app.inject({
      method: method as 'GET',
      url,
      payload: body as object,
      ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
      headers: {
        cookie: this.csrfCookie,
        ...(method !== 'GET' ? { 'x-xsrf-token': this.xsrf } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
    });
  }
  get(url: string) {
    return this.request('GET', url);
  }
  post(url: string, body?: unknown) {
    return this.request('POST', url, body ?? {});
  }
  patch(url: string, body?: unknown) {
    return this.request('PATCH', url, body ?? {});
  }
  delete(url: string) {
    return this.request('DELETE', url);
  }
}

/** Signs in a fresh admin of a fresh club; returns the club, the user and an Api. */
export async function signedInAdmin(ctx: TestContext, clubOpts: Parameters<typeof makeClub>[1] = {}) {
  const club = await makeClub(ctx, clubOpts);
  const user = await makeUser(ctx, club.id, { isAdmin: true });
  const api = new Api(ctx.app);
  const res = await api.login(user.username, TEST_PASSWORD, club.externalClubId);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return { club, user, api };
}

/**
 * The service operator (user level SuperUser, no club) signed in through any
 * club's sign-in (docs/operator.md); `api` acts as the operator.
 */
export async function signedInOperator(ctx: TestContext) {
  const anyClub = await makeClub(ctx);
  const user = await makeUser(ctx, null, { level: UserLevel.SuperUser, isAdmin: true });
  const api = new Api(ctx.app);
  const res = await api.login(user.username, TEST_PASSWORD, anyClub.externalClubId);
  if (res.statusCode !== 200) throw new Error(`operator login failed: ${res.body}`);
  return { user, api };
}
