import { TerminalClient, TerminalError, terminalUrl } from './client.js';
import { secretFromFiles, secretsFileCandidates } from './secrets.js';

/**
 * The terminal client of a one-shot command (`present`, `enroll`, `exit`,
 * `buy`): the secret from `--secret`, TERMINAL_SECRET or the demo secrets
 * file, the server from `--server`, TERMINAL_SERVER or ws://localhost:3000.
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
  let url: string;
  try {
    url = terminalUrl(server);
  } catch {
    usage(`Bad --server URL: ${server}`);
  }
  return { client: new TerminalClient({ url, serial: values.serial, secret, timeoutMs, heartbeat: false }), url };
}

/** Explains a failed one-shot command on stderr; the command then exits 1. */
export function reportFailure(err: unknown, url: string): void {
  const e = err as Error & { code?: string };
  const detail = err instanceof TerminalError ? e.message : `${e.code ?? 'ERROR'}: ${e.message}`;
  process.stderr.write(`${detail} (${url})\n`);
}
