import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/index.js';
import { serverState } from '../db/schema.js';
import { randomSecret } from './password.js';

/** Shortest key production accepts (characters; `openssl rand -base64 48` gives 64). */
export const MIN_SECRET_LENGTH = 32;

/** A secret that cannot start the server in production, with what to set. */
export class SecretsMissingError extends Error {}

/**
 * A secret from the environment: `NAME`, or the contents of the file
 * `NAME_FILE` (a container secret, trimmed); undefined when neither is set.
 * @throws SecretsMissingError when the file cannot be read
 */
function fromEnvironment(name: string, env: NodeJS.ProcessEnv): string | undefined {
  if (env[name]) return env[name];
  const file = env[`${name}_FILE`];
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new SecretsMissingError(`${name}_FILE=${file} cannot be read: ${(err as Error).message}`);
  }
}

/**
 * Server secrets (JWT signing key, data encryption key; docs/security.md
 * "Keys"). From the environment (JWT_SECRET, DATA_ENCRYPTION_KEY, or
 * JWT_SECRET_FILE, DATA_ENCRYPTION_KEY_FILE) when given. In production
 * (`production`, default NODE_ENV=production or VENUE_PRODUCTION=1) they
 * must be given, each at least MIN_SECRET_LENGTH characters: a key kept in the
 * database it protects is in every dump of it, beside the encrypted bank
 * accounts and biometric templates. Elsewhere a missing key is generated once
 * and kept in the database, so every instance on it signs and verifies alike.
 * @throws SecretsMissingError in production when a key is missing or short
 */
export async function loadSecrets(
  db: Db | Tx,
  opts: { production?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<{ jwtSecret: string; encryptionKey: string }> {
  const env = opts.env ?? process.env;
  const production = opts.production ?? (env.NODE_ENV === 'production' || env.VENUE_PRODUCTION === '1');
  const jwt = fromEnvironment('JWT_SECRET', env);
  const enc = fromEnvironment('DATA_ENCRYPTION_KEY', env);
  if (production) {
    const bad = [
      ['JWT_SECRET', jwt],
      ['DATA_ENCRYPTION_KEY', enc],
    ].filter(([, v]) => !v || v.length < MIN_SECRET_LENGTH);
    if (bad.length)
      throw new SecretsMissingError(
        `Production needs ${bad.map(([n]) => n).join(' and ')} (at least ${MIN_SECRET_LENGTH} characters) ` +
          'in the environment or in a file named by <NAME>_FILE, never in the database it protects ' +
          '(docs/security.md "Keys").',
      );
    return { jwtSecret: jwt!, encryptionKey: enc! };
  }
  return {
    jwtSecret: jwt || (await stateSecret(db, 'jwt_secret')),
    encryptionKey: enc || (await stateSecret(db, 'encryption_key')),
  };
}

async function stateSecret(db: Db | Tx, key: string): Promise<string> {
  await db
    .insert(serverState)
    .values({ key, value: randomSecret(32) })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverState).where(eq(serverState.key, key));
  return row.value;
}
