import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Identification } from '@venue/domain';
import { serverList } from './client.js';
import { runInteractive } from './interactive.js';
import { secretFromFiles, secretsFileCandidates } from './secrets.js';
import { runTraffic } from './traffic.js';

/**
 * The simulator's long-running modes, dispatched from
 * cli.ts: `interactive` (one terminal from the keyboard) and `traffic`
 * (many terminals presenting at a rate). Their options are parsed here.
 */

export const MODES_HELP = `
Long-running modes:
  interactive --serial <serial> [--secret s] [--server url[,url…]]
      One terminal from the keyboard: present card / fingerprint / face / code, insert coins
      and bills, exit, and watch the display (gate, door, link, cash, messages). Type help.
  traffic --terminals <n> [--rate <per second per terminal>] [--duration <seconds>]
          [--cards <a,b,c> | --card-range <from-to>] [--secrets <file.json>] [--server url[,url…]]
      n terminals at once, each presenting at the rate (0 = closed loop: next after each
      decision). Terminals and secrets come from a JSON file {"serial": "secret"} (default:
      the demo secrets file; the first n serials). Prints a JSON summary: decisions per
      second, statuses, offline decisions, p50/p90/p99 latency.
  Several servers (comma-separated): each terminal moves to the next when its server stops or goes
  away, and comes back in a round over all of them after a jittered back-off.
`;

function fail(message: string): never {
  process.stderr.write(`${message}\nRun with --help for usage.\n`);
  process.exit(2);
}

function secretsMap(file: string | undefined): Record<string, string> {
  const candidates = file ? [file] : secretsFileCandidates();
  for (const f of candidates) {
    try {
      return JSON.parse(readFileSync(f, 'utf8')) as Record<string, string>;
    } catch {
      // try the next one
    }
  }
  fail(`No secrets file found: ${candidates.join(', ')}`);
}

function cardsFrom(values: { cards?: string; 'card-range'?: string }): Identification[] {
  if (values.cards) return values.cards.split(',').map((value) => ({ kind: 'card' as const, value: value.trim() }));
  const range = values['card-range'] ?? '100001-100200';
  const m = /^(\d+)-(\d+)$/.exec(range);
  if (!m) fail('--card-range is <from>-<to>, e.g. 100001-100200');
  const out: Identification[] = [];
  for (let n = Number(m[1]); n <= Number(m[2]); n++) out.push({ kind: 'card', value: String(n) });
  return out;
}

/** Runs a mode; returns the exit code. */
export async function runMode(mode: 'interactive' | 'traffic', argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        serial: { type: 'string' },
        secret: { type: 'string' },
        server: { type: 'string' },
        terminals: { type: 'string' },
        rate: { type: 'string' },
        duration: { type: 'string' },
        cards: { type: 'string' },
        'card-range': { type: 'string' },
        secrets: { type: 'string' },
      },
    });
  } catch (err) {
    fail((err as Error).message);
  }
  const { values } = parsed;
  const server = values.server ?? process.env.TERMINAL_SERVER ?? 'ws://localhost:3000';
  let url: string[];
  try {
    url = serverList(server);
  } catch {
    fail(`Bad --server URL: ${server}`);
  }
  if (mode === 'interactive') {
    if (!values.serial) fail('--serial is required');
    const secret = values.secret ?? process.env.TERMINAL_SECRET ?? secretFromFiles(values.serial)?.secret;
    if (!secret) fail(`No secret for ${values.serial}: pass --secret or set TERMINAL_SECRET`);
    return runInteractive({ url, serial: values.serial, secret });
  }
  const n = Number(values.terminals ?? 3);
  const rate = Number(values.rate ?? 1);
  const duration = Number(values.duration ?? 10);
  if (!Number.isInteger(n) || n < 1) fail('--terminals must be a positive integer');
  if (!Number.isFinite(rate) || rate < 0) fail('--rate must be 0 or more');
  if (!Number.isFinite(duration) || duration <= 0) fail('--duration must be positive');
  const map = secretsMap(values.secrets);
  const terminals = Object.entries(map)
    .slice(0, n)
    .map(([serial, secret]) => ({ serial, secret }));
  if (terminals.length < n) process.stderr.write(`only ${terminals.length} terminals in the secrets file\n`);
  const result = await runTraffic({
    url,
    terminals,
    identifications: cardsFrom(values),
    rate,
    durationSeconds: duration,
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return 0;
}
