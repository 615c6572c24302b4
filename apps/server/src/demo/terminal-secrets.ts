import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import type { Db, Tx } from '../db/index.js';
import { terminals } from '../db/schema.js';
import { scoped } from '../lib/scoped.js';
import { hashPassword } from '../lib/password.js';
import { newTerminalSecret } from '../modules/terminals/terminal-secret.js';

/**
 * The demo terminals' secrets (DESIGN §8, §9). The database keeps only their
 * scrypt hashes; the plaintext map `{serial: secret}` is written to
 * `<DATA_DIR>/terminal-secrets.json` (also when the database is PostgreSQL),
 * where the terminal simulator (`npm run terminal`) reads it.
 *
 * Secrets cannot be recovered from the hashes. If the file is lost, start
 * the server again: `ensureDemoClub` notices the missing file and re-issues
 * new secrets for the DEMO-* terminals (`reissueDemoTerminalSecrets`), which
 * replaces their hashes and writes a fresh file. In production a technician
 * re-issues a terminal's secret through the console instead.
 */
export const TERMINAL_SECRETS_FILE = 'terminal-secrets.json';

/** Path of the secrets file in a data directory. */
export function terminalSecretsPath(dataDir: string): string {
  return path.join(dataDir, TERMINAL_SECRETS_FILE);
}

/** Writes the map atomically with owner-only permissions. */
export function writeTerminalSecrets(dataDir: string, secrets: Record<string, string>): string {
  mkdirSync(dataDir, { recursive: true });
  const file = terminalSecretsPath(dataDir);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return file;
}

/** Reads the map, or null when the file is missing or unreadable. */
export function readTerminalSecrets(dataDir: string): Record<string, string> | null {
  const file = terminalSecretsPath(dataDir);
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  } catch {
    return null;
  }
}

/** A new secret and its hash for each serial. */
export async function issueSecrets(serials: string[]): Promise<{ serial: string; secret: string; hash: string }[]> {
  return Promise.all(
    serials.map(async (serial) => {
      const secret = newTerminalSecret();
      return { serial, secret, hash: await hashPassword(secret) };
    }),
  );
}

/**
 * Gives the club's DEMO-* terminals new secrets (replacing their hashes) and
 * writes the secrets file. Returns the serial → secret map.
 */
export async function reissueDemoTerminalSecrets(
  db: Db | Tx,
  clubId: number,
  dataDir: string,
): Promise<Record<string, string>> {
  const rows = await db
    .select({ id: terminals.id, serial: terminals.serial })
    .from(terminals)
    .where(scoped(db, clubId).where(terminals, like(terminals.serial, 'DEMO-%')));
  const issued = await issueSecrets(rows.map((r) => r.serial));
  for (const r of rows) {
    const i = issued.find((x) => x.serial === r.serial)!;
    await db.update(terminals).set({ secretHash: i.hash }).where(eq(terminals.id, r.id));
  }
  const map = Object.fromEntries(issued.map((i) => [i.serial, i.secret]));
  writeTerminalSecrets(dataDir, map);
  return map;
}
