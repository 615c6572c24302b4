import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { TERMINAL_PROTOCOL_VERSION } from '@venue/domain';
import { HelloFailures } from './hello-failures.js';
import { createTestApp, makeOpenGate, signedInAdmin, type TestContext } from '../../test/harness.js';
import { TerminalClient } from '../../../terminal/src/client.js';

describe('failed terminal hellos per source: a token bucket', () => {
  it('refuses a source after `burst` failures, with the seconds until a token is back, and refills', () => {
    let now = 0;
    const f = new HelloFailures(3, 60_000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(f.retryAfter('10.0.0.1')).toBe(0);
      f.failed('10.0.0.1');
    }
    // A bucket of 3 refilled over 60 s: a token every 20 s.
    expect(f.retryAfter('10.0.0.1')).toBe(20);
    expect(f.retryAfter('10.0.0.2')).toBe(0); // another source is not touched
    now = 15_000;
    expect(f.retryAfter('10.0.0.1')).toBe(5);
    now = 20_000;
    expect(f.retryAfter('10.0.0.1')).toBe(0);
    expect(f.refused).toBe(2);
  });

  it('remembers at most maxSources addresses, forgetting full buckets first, then the oldest failure', () => {
    let now = 0;
    const f = new HelloFailures(2, 1000, () => now, 2);
    f.failed('a');
    f.failed('a');
    now = 2000; // a's bucket is full again
    f.failed('b');
    f.failed('b');
    f.failed('c'); // over the limit: a (full) is forgotten, b and c stay
    expect(f.retryAfter('b')).toBeGreaterThan(0);
    f.failed('d'); // none full: b, the oldest, goes
    expect(f.retryAfter('b')).toBe(0);
  });
});

/** Opens a WebSocket to the terminal link and says hello; resolves with the close code, or the HTTP status of a refused upgrade. */
function hello(
  base: string,
  serial: string,
  secret: string,
): Promise<{ close?: number; http?: number; retryAfter?: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/terminal/ws`);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', version: TERMINAL_PROTOCOL_VERSION, serial, secret })));
    ws.on('close', (code) => resolve({ close: code }));
    ws.on('unexpected-response', (_req, res) => {
      resolve({ http: res.statusCode, retryAfter: String(res.headers['retry-after']) });
      ws.terminate();
    });
    ws.on('error', () => {});
  });
}

describe('the terminal link refuses a source that keeps failing its hellos', () => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    // The app reads the limits when it registers the link (realtime/hello-failures.ts).
    process.env.TERMINAL_HELLO_FAILURES = '3';
    process.env.TERMINAL_HELLO_FAILURE_WINDOW_MS = '3000';
    try {
      ctx = await createTestApp();
    } finally {
      delete process.env.TERMINAL_HELLO_FAILURES;
      delete process.env.TERMINAL_HELLO_FAILURE_WINDOW_MS;
    }
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => ctx?.close());

  it('3 wrong secrets close with 4401; the 4th upgrade gets 429 with Retry-After; a token back admits a good gate', async () => {
    const { club } = await signedInAdmin(ctx);
    await makeOpenGate(ctx, club.id, { card: '7781', serial: 'HF-1', secret: 'good-secret-1' });
    for (let i = 0; i < 3; i++) expect(await hello(base, 'HF-1', 'wrong')).toEqual({ close: 4401 });
    const refused = await hello(base, 'HF-1', 'good-secret-1');
    expect(refused.http).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    // An unknown serial is a failure too, and is refused the same way while the bucket is empty.
    expect((await hello(base, 'NO-SUCH', 'x')).http).toBe(429);
    // A token every second (3 over 3 s): the gate's own back-off gets it in.
    await new Promise((r) => setTimeout(r, 1100));
    const tc = new TerminalClient({ url: base, serial: 'HF-1', secret: 'good-secret-1', heartbeat: false });
    await tc.connect();
    expect(tc.connected).toBe(true);
    await tc.close();
  });
});
