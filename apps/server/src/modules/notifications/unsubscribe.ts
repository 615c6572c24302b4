import { timingSafeEqual } from 'node:crypto';
import type { NoticeChannel } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { dataKeys, mac } from '../../lib/crypto.js';

/**
 * The unsubscribe link of a notice (docs/notifications.md "Unsubscribe"): `/unsubscribe/<token>`,
 * the token `<club>.<client>.<channel>.<keyed HMAC of the three>` (lib/crypto.ts `mac`), so a link
 * names one member's one channel and cannot be forged or moved to another member.
 */

const CONTEXT = 'notice-unsubscribe';

/** The token of a member's channel. */
export async function unsubscribeToken(
  db: Db | Tx,
  clubId: number,
  clientId: number,
  channel: NoticeChannel,
): Promise<string> {
  const keys = await dataKeys(db);
  return `${clubId}.${clientId}.${channel}.${mac(keys, `${clubId}.${clientId}.${channel}`, CONTEXT)}`;
}

/** The full link of a member's channel under the server's public address. */
export async function unsubscribeUrl(
  db: Db | Tx,
  base: string,
  clubId: number,
  clientId: number,
  channel: NoticeChannel,
): Promise<string> {
  return `${base}/unsubscribe/${await unsubscribeToken(db, clubId, clientId, channel)}`;
}

/** What a token names, or null when it is malformed or its HMAC does not match. */
export async function readUnsubscribeToken(
  db: Db,
  token: string,
): Promise<{ clubId: number; clientId: number; channel: NoticeChannel } | null> {
  const m = /^(\d{1,9})\.(\d{1,10})\.(email|sms)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const [, club, client, channel, sig] = m;
  const keys = await dataKeys(db);
  const expected = Buffer.from(mac(keys, `${club}.${client}.${channel}`, CONTEXT));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { clubId: Number(club), clientId: Number(client), channel: channel as NoticeChannel };
}
