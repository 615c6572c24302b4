import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makeClub, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { incidents } from '../../db/schema.js';
// The simulator CLI, bundled once per test process: `run(args, options)`.
import { runSimulator as run } from '../../../test/simulator.js';

/**
 * The simulator's `incident` command (apps/terminal/src/gate-cli.ts): a client
 * reports an incident at the terminal over the terminal protocol
 * (docs/terminal-protocol.md "Incident reports"), and the report is stored.
 */

const SECRET = 'incident-cli';

let ctx: TestContext;
let base: string;
let clubId: number;
let categoryId: number;
let offCategoryId: number;
const env = () => {
  const e: NodeJS.ProcessEnv = { ...process.env };
  delete e.TERMINAL_SECRET;
  return e;
};
const sim = async (...args: string[]) => {
  const { stdout } = await run([...args, '--secret', SECRET, '--server', base], { env: env() });
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
};

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const club = await makeClub(ctx, { settings: { isIncidentReportEnabled: true } });
  clubId = club.id;
  await factory.makeTerminal(ctx, club.id, { serial: 'ICLI-1', name: 'Pool gate', secret: SECRET });
  categoryId = (await factory.makeFeedbackCategory(ctx, club.id, { name: 'Towels missing' })).id;
  const off = await makeClub(ctx);
  await factory.makeTerminal(ctx, off.id, { serial: 'ICLI-OFF', secret: SECRET });
  offCategoryId = (await factory.makeFeedbackCategory(ctx, off.id)).id;
});

afterAll(async () => ctx?.close());

describe('simulator incident command', () => {
  it('reports an incident with a note; a resend of the same event id is stored once', async () => {
    const first = await sim(
      'incident',
      String(categoryId),
      '--note',
      'pool 2',
      '--serial',
      'ICLI-1',
      '--event-id',
      'inc-1',
    );
    expect(first).toMatchObject({ type: 'incident-reported', eventId: 'inc-1' });
    expect(first.incidentId).toBeGreaterThan(0);
    const again = await sim('incident', String(categoryId), '--serial', 'ICLI-1', '--event-id', 'inc-1');
    expect(again.incidentId).toBe(first.incidentId);
    const rows = await ctx.database.db.select().from(incidents).where(eq(incidents.clubId, clubId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ categoryId, source: 'terminal', note: 'pool 2', status: 'open' });
  });

  it("prints the server's refusal (incident reports off) as one JSON line", async () => {
    const refused = await sim('incident', String(offCategoryId), '--serial', 'ICLI-OFF', '--event-id', 'inc-off');
    expect(refused).toMatchObject({ type: 'error', code: 'INCIDENT_REFUSED', eventId: 'inc-off' });
  });

  it('refuses wrong usage with exit code 2 and documents the command', async () => {
    for (const args of [
      ['incident', '--serial', 'ICLI-1'],
      ['incident', 'abc', '--serial', 'ICLI-1'],
      ['incident', '0', '--serial', 'ICLI-1'],
    ]) {
      await expect(run([...args], { env: env() }), args.join(' ')).rejects.toMatchObject({ code: 2 });
    }
    const { stdout } = await run(['incident', '--help'], { env: env() });
    expect(stdout).toContain('incident <categoryId>');
    const main = await run(['--help'], { env: env() });
    expect(main.stdout).toContain('incident');
  });
});
