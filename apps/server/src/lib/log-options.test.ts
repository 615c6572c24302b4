import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { Api, openTestDatabase } from '../../test/harness.js';
import { safeUrl } from './log-options.js';

/**
 * No secrets in the server's log (docs/security.md "Logs"): the seed's
 * `/login?userName=…&password=…` link, the calendar feed's token and a failed
 * query's parameters were written at the default level.
 */
describe('the log holds no password, token or query parameters', () => {
  let app: FastifyInstance;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  const lines: string[] = [];
  beforeAll(async () => {
    database = await openTestDatabase();
    const logStream = new PassThrough();
    logStream.on('data', (d: Buffer) => lines.push(d.toString('utf8')));
    app = await buildApp({ config: { ...loadConfig({}), logLevel: 'info' }, database, logStream });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.dropAll();
  });

  it('keeps the path and the names of query fields, never their values', () => {
    expect(safeUrl('/login?userName=admin&password=Secret-987&externalClubId=1001')).toBe(
      '/login?userName=…&password=…&externalClubId=…',
    );
    expect(safeUrl('/api/Calendar/Feed/abcDEF123456.ics')).toBe('/api/Calendar/Feed/[token]');
    expect(safeUrl('/api/Calendar/Feed/Rotate')).toBe('/api/Calendar/Feed/Rotate');
    expect(safeUrl('/api/Client?search=Cohen')).toBe('/api/Client?search=…');
  });

  it('a sign-in link, a feed token and a failed query leave no trace of their secrets', async () => {
    const api = new Api(app);
    await app.inject({ url: '/login?userName=admin&password=Secret-987-pw&externalClubId=1001' });
    await app.inject({ url: '/api/Calendar/Feed/feedtoken-SENTINEL-42.ics' });
    await api.post('/api/Account', { username: 'nobody', password: 'Wrong-Secret-555', externalClubId: 1 });
    // A query the database refuses, logged as a warning with its error: its parameter must not be.
    await database.db
      .execute(sql`select ${'PARAM-SENTINEL-77'}::int`)
      .catch((err: Error) => app.log.warn({ err }, 'x'));
    await new Promise((r) => setTimeout(r, 50));
    const log = lines.join('');
    expect(log).toContain('/login?userName=…&password=…');
    expect(log).toContain('/api/Calendar/Feed/[token]');
    for (const secret of ['Secret-987-pw', 'feedtoken-SENTINEL-42', 'Wrong-Secret-555', 'PARAM-SENTINEL-77'])
      expect(log, secret).not.toContain(secret);
    expect(log).toContain('params: [redacted]');
  });
});
