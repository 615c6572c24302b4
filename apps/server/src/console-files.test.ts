import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { FastifyInstance } from 'fastify';
import { openTestDatabase } from '../test/harness.js';

/**
 * How the server sends the console's files and JSON (load speed): the
 * build's precompressed copies, an immutable cache for hashed files, no cache
 * for the page, a 404 (not the page) for a code file an update removed, and
 * compressed JSON answers.
 */
describe('console files and compression', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  const dist = mkdtempSync(path.join(os.tmpdir(), 'venue-dist-'));
  const script = `export const words = ${JSON.stringify('שלום עולם '.repeat(400))};\n`;

  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    const file = path.join(dist, 'assets/index-AbC123.js');
    writeFileSync(file, script);
    // Marked copies, so the test sees that the build's files are sent rather than compressed per request.
    writeFileSync(`${file}.br`, brotliCompressSync(`${script}//br`));
    writeFileSync(`${file}.gz`, gzipSync(`${script}//gz`));
    const database = await openTestDatabase();
    app = await buildApp({ config: { ...loadConfig({}), logLevel: 'silent', webDist: dist }, database });
    await app.ready();
    close = async () => {
      await app.close();
      await database.dropAll();
    };
  });
  afterAll(async () => {
    await close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('a POST to a path that is not a route (one that climbs out of the payment page) is a 404, not the page or a 500', async () => {
    for (const url of ['/sandbox/pay/../../etc', '/management/clients', '/etc/passwd']) {
      const res = await app.inject({ method: 'POST', url, payload: { number: '1' } });
      expect([url, res.statusCode, res.json().code]).toEqual([url, 404, 'NOT_FOUND']);
    }
    // The page itself is still the answer to a GET of a console route.
    expect((await app.inject({ url: '/management/clients' })).statusCode).toBe(200);
  });

  it('sends a hashed file precompressed, cached for a year as immutable', async () => {
    const br = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(`${script}//br`);

    const gz = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(`${script}//gz`);

    const plain = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('revalidates the page on every load, at its own path and at a console route', async () => {
    for (const url of ['/', '/index.html', '/management/clients']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toContain('<div id="root">');
    }
  });

  it('sets the anti-forgery cookies with a console route page, and a POST with them passes the check', async () => {
    const page = await app.inject({ url: '/login' });
    const cookies = Object.fromEntries(page.cookies.map((c) => [c.name, c.value]));
    expect(cookies['XSRF-TOKEN']).toBeTruthy();
    expect(cookies._csrf).toBeTruthy();
    const cookie = `XSRF-TOKEN=${cookies['XSRF-TOKEN']}; _csrf=${cookies._csrf}`;
    const bad = { username: 'nobody', password: 'wrong-password', externalClubId: 1001 };
    const withToken = await app.inject({
      method: 'POST',
      url: '/api/Account',
      headers: { cookie, 'x-xsrf-token': cookies['XSRF-TOKEN'] },
      payload: bad,
    });
    // Past the anti-forgery check: refused for the credentials, not as a forgery.
    expect(withToken.statusCode).toBe(401);
    const without = await app.inject({ method: 'POST', url: '/api/Account', headers: { cookie }, payload: bad });
    expect(without.statusCode).toBe(403);
    // A page load with the cookies already set does not replace them.
    const again = await app.inject({ url: '/login', headers: { cookie } });
    expect(again.cookies.map((c) => c.name)).not.toContain('XSRF-TOKEN');
  });

  it('answers 404 for a code file that does not exist, never the page', async () => {
    const res = await app.inject({ url: '/assets/index-Old999.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });

  it('compresses JSON answers over 1 KB for a client that accepts it, and leaves small ones alone', async () => {
    const big = await app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(big.rawPayload).toString()).openapi).toBeDefined();
    const small = await app.inject({ url: '/api/health', headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().ok).toBe(true);
  });
});
