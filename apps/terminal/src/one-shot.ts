import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;
import { serverList, TerminalClient, TerminalError } from './client.js';
import { secretFromFiles, secretsFileCandidates } from './secrets.js';

/**
 * The terminal client of a one-shot command (`present`, `enroll`, `exit`,
 * `buy`): the secret from `--secret`, TERMINAL_SECRET or the demo secrets
 * file, the server from `--server`, TERMINAL_SERVER or ws://localhost:3000 (one, or several
 * separated by commas).
 * Returns the client and its URL, or null after explaining on stderr when no secret is found (exit 1);
 * calls `usage` (exit 2) for a malformed server URL.
 */
export function oneShotClient(
  values: { serial: string; secret?: string; server?: string },
  timeoutMs: number,
  usage: (message: string) => never,
): { client: TerminalClient; url: string } | null {
  let secret = values.secret ?? process.env.TERMINAL_SECRET;
  if (!secret) {
    const found = secretFromFiles(values.serial);
    if (!found) {
      process.stderr.write(
        `No secret for ${values.serial}: pass --secret, set TERMINAL_SECRET, or start the demo server so that ` +
          `one of these files has it:\n  ${secretsFileCandidates().join('\n  ')}\n`,
      );
      return null;
    }
    secret = found.secret;
  }
  const server = values.server ?? process.env.TERMINAL_SERVER ?? 'ws://localhost:3000';
  let urls: string[];
  try {
    urls = serverList(server);
  } catch {
    usage(`Bad --server URL: ${server}`);
  }
  // Several servers (comma-separated): tried in order until one answers (docs/terminal-protocol.md "Several servers").
  const client = new TerminalClient({ url: urls, serial: values.serial, secret, timeoutMs, heartbeat: false });
  return { client, url: urls.join(', ') };
}

/** Explains a failed one-shot command on stderr; the command then exits 1. */
export function reportFailure(err: unknown, url: string): void {
  const e = err as Error & { code?: string };
  const detail = err instanceof TerminalError ? e.message : `${e.code ?? 'ERROR'}: ${e.message}`;
  process.stderr.write(`${detail} (${url})\n`);
}

/** Wrong usage of a one-shot command: explains on stderr and exits 2. */
export function usage(message: string): never {
  process.stderr.write(`${message}\nRun with --help for usage.\n`);
  process.exit(2);
}

/** The options every one-shot command takes (terminal identity, server, event id, time-out). */
const COMMON_OPTIONS = {
  serial: { type: 'string' },
  secret: { type: 'string' },
  server: { type: 'string' },
  'event-id': { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

/** The values of declared string and boolean options (absent when not given). */
type OptionValues<O extends ParseArgsOptionsConfig> = {
  [K in keyof O]?: O[K] extends { type: 'boolean' } ? boolean : string;
};

/**
 * Parses a one-shot command line: the common options plus `extra`. Wrong
 * usage exits 2 through {@link usage}. Answers `help: true` when `--help`
 * was given (the caller prints its text); otherwise `--serial` is required
 * and `timeoutMs` is `--timeout` (milliseconds, default `defaultTimeoutMs`).
 */
export function parseOneShot<E extends ParseArgsOptionsConfig>(
  argv: string[] | undefined,
  extra: E,
  defaultTimeoutMs = 10_000,
) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON_OPTIONS, ...extra } });
  } catch (err) {
    usage((err as Error).message);
  }
  // parseArgs checked every value against its declared type; its inferred type is lost over the generic spread.
  const values = parsed.values as OptionValues<typeof COMMON_OPTIONS & E>;
  const { positionals } = parsed;
  if (values.help) return { help: true as const, values, positionals };
  if (!values.serial) usage('--serial is required');
  const timeoutMs = values.timeout ? Number(values.timeout) : defaultTimeoutMs;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) usage('--timeout must be a positive number of milliseconds');
  return { help: false as const, values, positionals, serial: values.serial as string, timeoutMs };
}

/** `--at <iso-time>` as a Date (undefined when not given); a malformed time exits 2. */
export function parseAt(at: string | undefined): Date | undefined {
  if (at === undefined) return undefined;
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) usage('--at must be an ISO date-time');
  return d;
}

/**
 * Connects as the terminal, runs `run`, prints its answer as one JSON line
 * on stdout and closes. Resolves with the exit code: 0 the server answered,
 * 1 no secret, connection or authentication failed, or no answer in time.
 */
export async function runOneShot(
  values: { serial: string; secret?: string; server?: string },
  timeoutMs: number,
  run: (client: TerminalClient) => Promise<unknown>,
): Promise<number> {
  const conn = oneShotClient(values, timeoutMs, usage);
  if (!conn) return 1;
  const { client, url } = conn;
  try {
    process.stdout.write(`${JSON.stringify(await run(client))}\n`);
    return 0;
  } catch (err) {
    reportFailure(err, url);
    return 1;
  } finally {
    await client.close().catch(() => undefined);
  }
}
