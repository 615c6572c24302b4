import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { currentServer } from './fixtures';

const ROOT = path.resolve(import.meta.dirname, '..');

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
    'npx',
    [
      'tsx',
      'apps/terminal/src/cli.ts',
      'present',
      'card',
      card,
      '--serial',
      serial,
      '--timeout',
      '20000',
      '--server',
      currentServer().wsUrl,
    ],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: currentServer().dataDir }, encoding: 'utf8', timeout: 60_000 },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as Decision;
}
