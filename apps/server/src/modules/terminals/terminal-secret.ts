import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { serverState } from '../../db/schema.js';
import { randomSecret, verifyPassword } from '../../lib/password.js';

/**
 * Terminal secrets (docs/terminal-protocol.md "Authentication").
 *
 * A terminal's secret is 192 random bits issued by the server, not a
 * password a person chose: nobody can guess it and no dictionary holds it, so
 * a slow password hash (scrypt) buys nothing over a keyed hash while costing
 * ~30 ms of CPU per hello — 1.5 s of one core when 50 gates reconnect at
 * once. New secrets are therefore stored as `hmac$<base64url HMAC-SHA256(key,
 * secret)>` with a server key kept in `server_state` (or TERMINAL_SECRET_KEY),
 * compared in constant time. Secrets stored earlier as `scrypt$…` keep
 * working (the prefix says which check applies) and are re-stored as HMAC on
 * their next good hello: no migration.
 */

const keys = new WeakMap<Db, Promise<Buffer>>();

/** The server's key for terminal secrets (one per database, shared by every instance). */
export function terminalKey(db: Db): Promise<Buffer> {
  let k = keys.get(db);
  if (!k) {
    k = (async () => {
      if (process.env.TERMINAL_SECRET_KEY) return Buffer.from(process.env.TERMINAL_SECRET_KEY);
      await db
        .insert(serverState)
        .values({ key: 'terminal_secret_key', value: randomSecret(32) })
        .onConflictDoNothing();
      const [row] = await db.select().from(serverState).where(eq(serverState.key, 'terminal_secret_key'));
      return Buffer.from(row.value);
    })();
    keys.set(db, k);
  }
  return k;
}

/**
 * A new terminal secret: 192 random bits in base64url, never starting with
 * '-' — a technician types it after `--secret` on the simulator's command
 * line, which reads `--secret -x…` as a missing value (one secret in 64
 * did; the space left is 2^192 · 63/64).
 */
export function newTerminalSecret(): string {
  for (;;) {
    const secret = randomSecret();
    if (!secret.startsWith('-')) return secret;
  }
}

/** The stored form of a terminal secret: `hmac$…`. */
export function hashTerminalSecret(key: Buffer, secret: string): string {
  return `hmac$${createHmac('sha256', key).update(secret).digest('base64url')}`;
}

/**
 * Checks a presented secret against the stored form (`hmac$…` in constant
 * time, or a legacy `scrypt$…` hash). False for anything malformed.
 */
export async function verifyTerminalSecret(key: Buffer, secret: string, stored: string): Promise<boolean> {
  if (stored.startsWith('hmac$')) {
    const expected = Buffer.from(stored);
    const actual = Buffer.from(hashTerminalSecret(key, secret));
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
  if (stored.startsWith('scrypt$')) return verifyPassword(secret, stored);
  return false;
}
