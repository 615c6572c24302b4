import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Db, Tx } from '../db/index.js';
import { loadSecrets } from './secrets.js';

/**
 * Encryption at rest for sensitive data (DESIGN §7: biometric templates and
 * bank details; DOMAIN-FACTS: biometric data is "highly sensitive" under the
 * Israeli Privacy Protection Regulations). AES-256-GCM with a random 96-bit
 * nonce per value, and HMAC-SHA256 for values that must be found by equality
 * without decrypting (a biometric template presented at the gate). Both keys
 * are derived with HKDF-SHA256 from DATA_ENCRYPTION_KEY (lib/secrets.ts), one
 * key per purpose, so the HMAC never reveals anything about the cipher key.
 */

export interface DataKeys {
  /** 32-byte AES-256-GCM key. */
  enc: Buffer;
  /** 32-byte HMAC-SHA256 key. */
  mac: Buffer;
}

/** Keys derived from a secret (any string; the server's is 32 random bytes in hex or base64url). */
export function deriveKeys(secret: string): DataKeys {
  const ikm = Buffer.from(secret, 'utf8');
  const salt = Buffer.from('venue-data-keys-v1');
  return {
    enc: Buffer.from(hkdfSync('sha256', ikm, salt, 'aes-256-gcm', 32)),
    mac: Buffer.from(hkdfSync('sha256', ikm, salt, 'hmac-sha256', 32)),
  };
}

const cache = new WeakMap<object, Promise<DataKeys>>();

/**
 * The server's data keys (memoized per database handle or transaction;
 * secrets are read once per handle). A transaction reads them inside itself.
 */
export function dataKeys(db: Db | Tx): Promise<DataKeys> {
  let p = cache.get(db);
  if (!p) {
    p = loadSecrets(db).then((s) => deriveKeys(s.encryptionKey));
    p.catch(() => cache.delete(db));
    cache.set(db, p);
  }
  return p;
}

const VERSION = 'v1';

/**
 * Encrypts a string: `v1.<nonce>.<tag>.<ciphertext>` (base64url parts).
 * `aad` binds the ciphertext to its context (e.g. `club:3:fingerprint`), so a
 * value copied to another row or club does not decrypt.
 */
export function encrypt(keys: DataKeys, plaintext: string, aad = ''): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keys.enc, iv);
  c.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return [VERSION, iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

/** Decrypts what `encrypt` produced with the same `aad`; throws on a wrong key, context or tampering. */
export function decrypt(keys: DataKeys, sealed: string, aad = ''): string {
  const [v, iv, tag, ct] = sealed.split('.');
  if (v !== VERSION || !iv || !tag || ct === undefined) throw new Error('Not an encrypted value');
  const d = createDecipheriv('aes-256-gcm', keys.enc, Buffer.from(iv, 'base64url'));
  d.setAAD(Buffer.from(aad, 'utf8'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
}

/** Keyed HMAC-SHA256 (base64url) of a value in a context: an index for equality lookups. */
export function mac(keys: DataKeys, value: string, context = ''): string {
  return createHmac('sha256', keys.mac).update(context).update('\0').update(value).digest('base64url');
}
