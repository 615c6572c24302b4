import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntranceState, QuickExitOutcome, Reason } from '@venue/domain';
import { createTestApp, makeClub, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
// The simulator CLI, bundled once per test process: `run(args, options)`.
import { runSimulator as run } from '../../../test/simulator.js';

/** The simulator's gate commands (apps/terminal/src/gate-cli.ts): enroll, present fingerprint|face|code, exit. */

let ctx: TestContext;
let base: string;
const env = () => {
  const e: NodeJS.ProcessEnv = { ...process.env };
  delete e.TERMINAL_SECRET;
  return e;
};
const sim = async (...args: string[]) => {
  const { stdout } = await run([...args, '--secret', 'gate-cli', '--server', base], { env: env() });
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
};

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const club = await makeClub(ctx, {
    settings: {
      isQuickExitEnabled: true,
      quickExitMinMinutes: 0,
      quickExitMaxMinutes: 60,
      quickExitSubscriptionReward: 200,
    },
  });
  const g = await factory.makeGroup(ctx, club.id, { name: 'All', entranceState: EntranceState.Opened });
  const secret = 'gate-cli';
  await factory.makeTerminal(ctx, club.id, {
    serial: 'GCLI-1',
    name: 'Enrol gate',
    secret,
    settings: { allowEnrollment: true },
  });
  await factory.makeTerminal(ctx, club.id, { serial: 'GCLI-2', name: 'Exit', secret, settings: { quickExit: true } });
  // No card: she enrols a fingerprint; the decisions name her 'Tamar' (no last name).
  await factory.makeClient(ctx, club.id, {
    number: 7,
    firstName: 'Tamar',
    lastName: '',
    cardSerial: '',
    groupId: g.id,
    clientCode: 'T7',
    enrollPassword: '4321',
    ...factory.SUBSCRIBED,
  });
});

afterAll(async () => ctx?.close());

describe('simulator gate commands', () => {
  it('enrols a fingerprint, presents it, leaves through the quick exit; code identifies too', async () => {
    expect(
      await sim('enroll', 'fingerprint', '7', 'FMD-cli', '--password', '4321', '--serial', 'GCLI-1'),
    ).toMatchObject({
      type: 'enrolled',
      ok: true,
      clientName: 'Tamar',
    });
    expect(await sim('enroll', 'face', '7', 'FACE-cli', '--password', 'bad', '--serial', 'GCLI-1')).toMatchObject({
      ok: false,
      code: 'WRONG_PASSWORD',
    });
    const at = new Date(Date.now() - 10 * 60_000).toISOString();
    expect(await sim('present', 'fingerprint', 'FMD-cli', '--serial', 'GCLI-1', '--at', at)).toMatchObject({
      type: 'decision',
      status: 1,
      reason: Reason.EntryBySubscription,
    });
    expect(await sim('exit', 'fingerprint', 'FMD-cli', '--serial', 'GCLI-2')).toMatchObject({
      type: 'exit-result',
      outcome: QuickExitOutcome.BySubscription,
      rewardAmount: 200,
    });
    expect(await sim('present', 'code', 'T7', '--serial', 'GCLI-1')).toMatchObject({ status: 1, clientName: 'Tamar' });
  });

  it('refuses wrong usage with exit code 2 and documents the commands', async () => {
    await expect(run(['enroll', 'card', '7', '--serial', 'GCLI-1'], { env: env() })).rejects.toMatchObject({
      code: 2,
    });
    const { stdout } = await run(['enroll', '--help'], { env: env() });
    expect(stdout).toContain('--password');
    expect(stdout).toContain('exit <kind> <value>');
  });
});
