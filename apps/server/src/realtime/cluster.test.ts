import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { EntranceState, type LiveMessage } from '@venue/domain';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/index.js';
import * as factory from '../../test/factories.js';
import { Api, openTestDatabase, signedInAdmin, TEST_DB, type TestContext } from '../../test/harness.js';
import { PgEventBus } from '../lib/event-bus.js';
import { TerminalClient } from '../../../terminal/src/client.js';

/**
 * Two server instances on one PostgreSQL database (DESIGN §12): the
 * live feed of instance A shows what happens at a terminal connected
 * to instance B (LISTEN/NOTIFY), and TerminalActionWithReply sent to A
 * reaches the terminal on B and returns its reply.
 *
 * PGlite is one process's embedded database: two instances cannot share it,
 * so this test runs only with TEST_DB=postgres.
 */
const onPostgres = TEST_DB === 'postgres';

let shared: Awaited<ReturnType<typeof openTestDatabase>>;
let second: Database;
let a: FastifyInstance;
let b: FastifyInstance;
let baseA = '';
let baseB = '';
const config = { ...loadConfig({}), logLevel: 'silent', loginRateLimit: 1000 };

beforeAll(async () => {
  if (!onPostgres) return;
  shared = await openTestDatabase();
  second = await openDatabase({ databaseUrl: shared.url!, poolSize: 3 });
  // No bus passed: on PostgreSQL each app makes its own PgEventBus.
  a = await buildApp({ config, database: shared });
  b = await buildApp({ config, database: second });
  baseA = await a.listen({ port: 0, host: '127.0.0.1' });
  baseB = await b.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  if (!onPostgres) return;
  await a?.close();
  await b?.close();
  await second?.close();
  await shared?.dropAll();
});

const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.skipIf(!onPostgres)(
  'two server instances on one PostgreSQL (skipped on PGlite: it cannot be shared by two processes)',
  () => {
    it('uses LISTEN/NOTIFY on PostgreSQL', () => {
      expect(a.deps.bus).toBeInstanceOf(PgEventBus);
      expect(a.deps.bus.instanceId).not.toBe(b.deps.bus.instanceId);
    });

    it('pushes B’s terminal events to A’s live feed, scoped to the club, and routes actions with reply through B', async () => {
      const ctxA = { app: a, database: shared } as unknown as TestContext;
      const { api, club } = await signedInAdmin(ctxA);
      const other = await signedInAdmin(ctxA);
      const g = await factory.makeGroupWithSchedule(ctxA, club.id, { name: 'G' }, [
        { entranceState: EntranceState.FreeOpen },
      ]);
      await factory.makeClient(ctxA, club.id, {
        number: 1,
        firstName: 'Two',
        lastName: 'Instances',
        groupId: g.id,
        cardSerial: 'CL-1',
      });
      const t = (await api.post('/api/Terminal', { serial: `CL-${club.id}`, name: 'On B' })).json();
      await api.patch(`/api/Terminal/${t.id}`, { approved: true });

      const feed = async (base: string, token: string) => {
        const ws = new WebSocket(`${base.replace('http', 'ws')}/api/live`);
        const got: LiveMessage[] = [];
        await new Promise<void>((resolve) => {
          ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
          ws.on('message', (d) => {
            const m = JSON.parse(d.toString()) as LiveMessage;
            got.push(m);
            if (m.type === 'ready') resolve();
          });
        });
        return { ws, got };
      };
      const liveA = await feed(baseA, api.token!);
      const liveOther = await feed(baseA, other.api.token!);

      const tc = new TerminalClient({ url: baseB, serial: t.serial, secret: t.secret, heartbeat: false });
      await tc.connect();
      await until(() => liveA.got.some((m) => m.type === 'terminal' && m.terminalId === t.id && m.connected));
      expect((await api.get(`/api/Terminal/${t.id}`)).json().connected).toBe(true);

      const d = await tc.present({ kind: 'card', value: 'CL-1' });
      expect(d.status).toBe(1);
      await until(() => liveA.got.some((m) => m.type === 'entrance' && m.row.clientName === 'Two Instances'));

      // The console on A asks the terminal on B and gets its answer.
      const reply = await api.post('/api/Terminal/TerminalActionWithReply', { targetId: t.id, actionName: 'openGate' });
      expect(reply.statusCode).toBe(200);
      expect(reply.json()).toMatchObject({ ok: true, data: { openSeconds: 5 } });
      expect(tc.actions.map((x) => x.actionName)).toEqual(['openGate']);
      const fire = await api.post('/api/Terminal/TerminalAction', { targetId: t.id, actionName: 'ping' });
      expect(fire.statusCode).toBe(200);
      await until(() => tc.actions.length === 2);

      await tc.close();
      await until(() => liveA.got.some((m) => m.type === 'terminal' && m.terminalId === t.id && !m.connected));
      // Another club watching A saw nothing of this club.
      expect(liveOther.got.filter((m) => m.type !== 'ready')).toEqual([]);
      liveA.ws.close();
      liveOther.ws.close();
      void Api;
    });

    it('decides the same card presented at a terminal on A and one on B at the same moment once', async () => {
      // The per-identification order of one process (modules/gate/batcher.ts KeyedSerializer) does not reach
      // the other instance; the client's guard row (client_entry_guard, modules/gate/gate-batch.ts) does.
      const ctxA = { app: a, database: shared } as unknown as TestContext;
      const { api, club } = await signedInAdmin(ctxA);
      const g = await factory.makeGroupWithSchedule(ctxA, club.id, { name: 'Both' }, [
        { entranceState: EntranceState.FreeOpen },
      ]);
      const rounds = 8;
      for (let i = 0; i < rounds; i++) {
        await factory.makeClient(ctxA, club.id, {
          number: 100 + i,
          firstName: 'Same',
          lastName: `Card ${i}`,
          groupId: g.id,
          cardSerial: `SAME-${i}`,
        });
      }
      const link = async (base: string, name: string) => {
        const t = (await api.post('/api/Terminal', { serial: `SC-${club.id}-${name}`, name })).json();
        await api.patch(`/api/Terminal/${t.id}`, { approved: true });
        const tc = new TerminalClient({ url: base, serial: t.serial, secret: t.secret, heartbeat: false });
        await tc.connect();
        return tc;
      };
      const onA = await link(baseA, 'A');
      const onB = await link(baseB, 'B');
      try {
        for (let i = 0; i < rounds; i++) {
          const both = await Promise.all([
            onA.present({ kind: 'card', value: `SAME-${i}` }),
            onB.present({ kind: 'card', value: `SAME-${i}` }),
          ]);
          expect(both.map((d) => d.status).sort(), `round ${i}`).toEqual([1, 13]);
        }
      } finally {
        await onA.close();
        await onB.close();
      }
    });

    it('signing out on A closes the session’s live socket open on B at once (docs/security.md "Sessions")', async () => {
      const { api } = await signedInAdmin({ app: a, database: shared } as unknown as TestContext);
      const ws = new WebSocket(`${baseB.replace('http', 'ws')}/api/live`);
      const received: LiveMessage[] = [];
      let closedWith = 0;
      ws.on('close', (code) => (closedWith = code));
      await new Promise<void>((resolve, reject) => {
        ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token: api.token })));
        ws.on('message', (d) => {
          const m = JSON.parse(d.toString()) as LiveMessage;
          received.push(m);
          if (m.type === 'ready') resolve();
        });
        ws.on('error', reject);
      });
      expect((await api.post('/api/Account/Logout')).statusCode).toBe(200);
      await until(() => closedWith !== 0);
      expect(closedWith).toBe(4401);
      // And B refuses the token's requests as A does: the database is the one state.
      expect(
        (
          await new Api(b).request('GET', '/api/Account/GetCurrent', undefined, {
            authorization: `Bearer ${api.token}`,
          })
        ).statusCode,
      ).toBe(401);
    });
  },
);
