import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/harness.js';
import { serverState } from '../db/schema.js';
import { loadSecrets, SecretsMissingError } from './secrets.js';

/**
 * Keys outside the database in production (docs/security.md "Keys"): a dump
 * of the database held the JWT secret and the encryption key beside what they
 * protect. Production refuses to start without them from the environment (or
 * a file); development still generates and keeps them.
 */
describe('server keys', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());
  const long = (c: string) => c.repeat(40);

  it('production without keys in the environment refuses, naming what to set, even when the database holds some', async () => {
    await loadSecrets(ctx.database.db, { production: false, env: {} }); // generated and kept in the database
    expect((await ctx.database.db.select().from(serverState)).map((r) => r.key)).toEqual(
      expect.arrayContaining(['jwt_secret', 'encryption_key']),
    );
    const missing = loadSecrets(ctx.database.db, { production: true, env: {} });
    await expect(missing).rejects.toBeInstanceOf(SecretsMissingError);
    await expect(missing).rejects.toThrow(/JWT_SECRET and DATA_ENCRYPTION_KEY/);
    await expect(
      loadSecrets(ctx.database.db, { production: true, env: { JWT_SECRET: 'short', DATA_ENCRYPTION_KEY: long('k') } }),
    ).rejects.toThrow(/JWT_SECRET \(at least 32/);
  });

  it('production takes the keys from the environment or from files, never from the database', async () => {
    const env = { JWT_SECRET: long('j'), DATA_ENCRYPTION_KEY: long('k') };
    expect(await loadSecrets(ctx.database.db, { production: true, env })).toEqual({
      jwtSecret: long('j'),
      encryptionKey: long('k'),
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'venue-keys-'));
    writeFileSync(path.join(dir, 'jwt'), `${long('x')}\n`);
    writeFileSync(path.join(dir, 'enc'), long('y'));
    const files = { JWT_SECRET_FILE: path.join(dir, 'jwt'), DATA_ENCRYPTION_KEY_FILE: path.join(dir, 'enc') };
    expect(await loadSecrets(ctx.database.db, { production: true, env: files })).toEqual({
      jwtSecret: long('x'),
      encryptionKey: long('y'),
    });
    await expect(
      loadSecrets(ctx.database.db, { production: true, env: { ...files, JWT_SECRET_FILE: path.join(dir, 'none') } }),
    ).rejects.toThrow(/JWT_SECRET_FILE=.* cannot be read/);
  });
});
