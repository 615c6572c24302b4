import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { Api, createTestApp, signedInAdmin, type TestContext } from '../test/harness.js';

/**
 * HTTP hardening (docs/security.md "HTTP hardening"): the CSP lets the console
 * connect to its own origin only (its live socket included), anti-forgery
 * cookies are `Secure` in production, an id above 2³¹−1 in a body is a 400,
 * and a path that climbs out of the provider's payment page is a 4xx, not a
 * 500 (console-files.test.ts tries it with a built console, where it was one).
 */
describe('HTTP hardening', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it("CSP connect-src is the server's own origin, no other WebSocket host", async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
    expect(csp).not.toMatch(/connect-src[^;]*ws:/);
  });

  it('anti-forgery cookies are Secure in production, not in development', async () => {
    const secure = async (app: FastifyInstance) => {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      const cookies = res.cookies as { name: string; secure?: boolean }[];
      expect(cookies.map((c) => c.name).sort()).toEqual(['XSRF-TOKEN', '_csrf']);
      return cookies.map((c) => c.secure === true);
    };
    expect(await secure(ctx.app)).toEqual([false, false]);
    // Production takes its keys from the environment only (docs/security.md "Keys").
    const saved = { jwt: process.env.JWT_SECRET, enc: process.env.DATA_ENCRYPTION_KEY };
    process.env.JWT_SECRET = 'j'.repeat(40);
    process.env.DATA_ENCRYPTION_KEY = 'k'.repeat(40);
    const prod = await buildApp({
      config: { ...loadConfig({ NODE_ENV: 'production' }), logLevel: 'silent' },
      database: ctx.database,
    }).finally(() => {
      for (const [k, v] of [
        ['JWT_SECRET', saved.jwt],
        ['DATA_ENCRYPTION_KEY', saved.enc],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    });
    try {
      expect(await secure(prod)).toEqual([true, true]);
    } finally {
      await prod.close();
    }
  });

  it('CreateResetCashLevels: a terminal id above 2³¹−1 is a 400 naming the field', async () => {
    const { api } = await signedInAdmin(ctx);
    const res = await api.post('/api/Terminal/CreateResetCashLevels', { terminalId: 2 ** 31 });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details.map((d: { path: string }) => d.path)).toContain('terminalId');
  });

  it("a path that climbs out of the provider's payment page is a 4xx, never a 500", async () => {
    const api = new Api(ctx.app);
    for (const url of ['/sandbox/pay/../../etc', '/sandbox/pay/..%2F..%2Fetc', '/sandbox/pay/%2e%2e/%2e%2e/etc']) {
      const res = await api.request('POST', url, { number: '1', expiry: '1', cvv: '1' });
      expect([url, res.statusCode >= 400 && res.statusCode < 500]).toEqual([url, true]);
    }
  });
});
