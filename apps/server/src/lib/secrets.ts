import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/index.js';
import { serverState } from '../db/schema.js';
import { randomSecret } from './password.js';

/**
 * Server secrets (JWT signing key, data encryption key). Taken from the
 * environment (JWT_SECRET, DATA_ENCRYPTION_KEY) when given; otherwise
 * generated once and kept in the database, so that every server instance on
 * the same database signs and verifies alike (DESIGN §4, §12).
 */
export async function loadSecrets(db: Db | Tx): Promise<{ jwtSecret: string; encryptionKey: string }> {
  return {
    jwtSecret: process.env.JWT_SECRET || (await stateSecret(db, 'jwt_secret')),
    encryptionKey: process.env.DATA_ENCRYPTION_KEY || (await stateSecret(db, 'encryption_key')),
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
