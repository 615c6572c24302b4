import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { currentServer } from './fixtures';
import { simulatorBundle } from '../apps/server/test/simulator';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * The terminal simulator's command line (apps/terminal/src/cli.ts) with `args`, as a command and its
 * arguments for `spawn` or `execFileSync`: the same source bundled once per test worker by esbuild
 * (apps/server/test/simulator.ts) and run with this worker's Node. A start costs about 0.7 s of CPU
 * against 4.2 s through `npx tsx` (docs/testing.md "The simulator started through its bundle"), and
 * the browser phase's four workers keep the two cores busy.
 */
export function simulatorCommand(args: string[]): [string, string[]] {
  return [process.execPath, [simulatorBundle(), ...args]];
}

/** A gate's decision as the simulator prints it (docs/terminal-protocol.md "decision"). */
export interface Decision {
  status: number;
  reason: number;
  clientName?: string;
}

/**
 * Presents a card at the demo terminal `serial` with the terminal simulator,
 * as a gate would, against the browser tests' server; returns its decision.
 * Gives up after 60 s (the simulator's own wait for the server is 20 s).
 */
export function presentCard(card: string, serial = 'DEMO-1'): Decision {
  const out = execFileSync(
    ...simulatorCommand([
      'present',
      'card',
      card,
      '--serial',
      serial,
      '--timeout',
      '20000',
      '--server',
      currentServer().wsUrl,
    ]),
    { cwd: ROOT, env: { ...process.env, DATA_DIR: currentServer().dataDir }, encoding: 'utf8', timeout: 60_000 },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as Decision;
}
