import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntranceState } from '@venue/domain';
import { createTestApp, makeClub, type TestContext } from '../../test/harness.js';
import * as factory from '../../test/factories.js';
// The simulator CLI, bundled once per test process: `run(args, options)`.
import { runSimulator as run } from '../../test/simulator.js';

/** The simulator CLI (apps/terminal/src/cli.ts) against a listening server: one JSON line on stdout. */

let ctx: TestContext;
let base: string;
let dataDir: string;

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const club = await makeClub(ctx);
  const g = await factory.makeGroup(ctx, club.id, { name: 'All', entranceState: EntranceState.FreeOpen });
  await factory.makeTerminal(ctx, club.id, { serial: 'CLI-1', name: 'CLI gate', secret: 'cli-secret' });
  await factory.makeClient(ctx, club.id, { firstName: 'Noa', lastName: '', groupId: g.id, cardSerial: '424242' });
  dataDir = mkdtempSync(path.join(tmpdir(), 'venue-cli-'));
  writeFileSync(path.join(dataDir, 'terminal-secrets.json'), JSON.stringify({ 'CLI-1': 'cli-secret' }));
});

afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await ctx?.close();
});

const env = (extra: Record<string, string> = {}) => {
  const e: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete e.TERMINAL_SECRET;
  return e;
};

describe('terminal simulator CLI', () => {
  it('presents a card with --secret and prints only the decision as JSON', async () => {
    const { stdout } = await run(
      ['present', 'card', '424242', '--serial', 'CLI-1', '--secret', 'cli-secret', '--server', base],
      {
        env: env(),
      },
    );
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ type: 'decision', status: 1, clientName: 'Noa', gateOpenSeconds: 5 });
  });

  it('reads the secret from DATA_DIR/terminal-secrets.json when none is given', async () => {
    const { stdout } = await run(['hello', '--serial', 'CLI-1', '--server', base], {
      env: env({ DATA_DIR: dataDir }),
    });
    expect(JSON.parse(stdout)).toMatchObject({ type: 'welcome', name: 'CLI gate', approved: true });
  });

  it('exits 1 on a wrong secret and 2 on wrong usage', async () => {
    await expect(
      run(['hello', '--serial', 'CLI-1', '--secret', 'nope', '--server', base], { env: env() }),
    ).rejects.toMatchObject({ code: 1, stdout: '' });
    await expect(run(['present', 'card', '--serial', 'CLI-1'], { env: env() })).rejects.toMatchObject({
      code: 2,
    });
  });

  it('documents itself', async () => {
    const { stdout } = await run(['--help'], { env: env() });
    expect(stdout).toContain('terminal-secrets.json');
    expect(stdout).toContain('--event-id');
  });
});
