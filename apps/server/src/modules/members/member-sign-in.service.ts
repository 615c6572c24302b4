import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, asc, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import {
  ClientStatus,
  MEMBER_CODE_TRIES,
  MEMBER_CODE_TTL_SECONDS,
  normalizePhone,
  type MemberClub,
  type MemberCodeSent,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { auditLog, clients, clubs, memberCodes } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { validationError } from '../../lib/validation.js';
import { forgetPairFailures, recordFailure, refuseWhileDelayed } from '../account/account.service.js';

/*
 * The member app's sign-in by one-time code (issue 37; docs/members.md
 * "Sign-in" and "Limits"). A code goes to the phone (SMS) or e-mail on file;
 * it is 6 digits, valid 10 minutes, spent by its 5th wrong try or its use,
 * and only its HMAC-SHA-256 under a server key is stored. A new code replaces
 * the contact's earlier ones.
 */

/** Codes one address may have sent to one contact within CODE_WINDOW_SECONDS. */
export const CODES_PER_ADDRESS = 3;
/** The window of CODES_PER_ADDRESS (15 minutes). */
export const CODE_WINDOW_SECONDS = 15 * 60;
/**
 * Codes sent to one contact from all addresses within an hour at which the
 * contact is under sustained requests: from then on each address may have one
 * code sent to it per hour (the staff sign-in's ceiling, which tightens each
 * address and never refuses an address that has asked nothing).
 */
export const CODES_CONTACT_CEILING = 10;

/** A contact as stored: E.164 phone or lower-case e-mail, and the channel its code goes by. */
export interface MemberContact {
  contact: string;
  channel: 'sms' | 'email';
}

/**
 * Normalises what the member typed: an e-mail (lower-case) when it has an @,
 * else a phone number (E.164, Israel by default, libphonenumber).
 * @throws AppError VALIDATION_ERROR (path contact, memberContactInvalid)
 */
export function normalizeContact(raw: string): MemberContact {
  const t = raw.trim();
  if (t.includes('@')) {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(t)) throw validationError([{ path: 'contact', message: 'invalidEmail' }]);
    return { contact: t.toLowerCase(), channel: 'email' };
  }
  const phone = normalizePhone(t);
  if (!phone) throw validationError([{ path: 'contact', message: 'invalidPhone' }]);
  return { contact: phone, channel: 'sms' };
}

/** The members (live clients) a contact is on file for, in every club: the club's own member first (not a child). */
export async function membersOfContact(db: Db, c: MemberContact) {
  const match = c.channel === 'sms' ? eq(clients.phone, c.contact) : sql`lower(${clients.email}) = ${c.contact}`;
  return db
    .select({ clientId: clients.id, clubId: clients.clubId, clubName: clubs.name, parentId: clients.parentId })
    .from(clients)
    .innerJoin(clubs, eq(clubs.id, clients.clubId))
    .where(and(match, ne(clients.status, ClientStatus.Deleted), isNull(clubs.disabledAt)))
    .orderBy(asc(clients.clubId), sql`${clients.parentId} is not null`, asc(clients.id));
}

/** The clubs of a contact, each once, with the member's own client there (a parent rather than a child of hers). */
export async function clubsOfContact(db: Db, c: MemberContact): Promise<(MemberClub & { clientId: number })[]> {
  const out = new Map<number, MemberClub & { clientId: number }>();
  for (const m of await membersOfContact(db, c))
    if (!out.has(m.clubId)) out.set(m.clubId, { clubId: m.clubId, name: m.clubName, clientId: m.clientId });
  return [...out.values()];
}

/** HMAC-SHA-256 of a code for a contact under the server's member-code key (hex). */
export function hashCode(key: Buffer, contact: string, code: string): string {
  return createHmac('sha256', key).update(`${contact}\n${code}`).digest('hex');
}

/** What a code is sent as: the outbox's message (the notifications area's queueMessage takes it). */
export interface MemberCodeMessage {
  clubId: number;
  clientId: number;
  channel: 'sms' | 'email';
  to: string;
  kind: 'member-code';
  subject: string;
  text: string;
  urgent: true;
}

/** Sends a code's message (the notifications outbox; docs/members.md "Sign-in"). */
export type SendMemberCode = (db: Db, m: MemberCodeMessage) => Promise<unknown>;

const TEXT = {
  he: (code: string, club: string) => ({
    subject: `קוד כניסה – ${club}`,
    text: `קוד הכניסה שלך ל${club}: ${code}\nהקוד בתוקף 10 דקות. אם לא ביקשת אותו, אפשר להתעלם מהודעה זו.`,
  }),
  en: (code: string, club: string) => ({
    subject: `Sign-in code – ${club}`,
    text: `Your sign-in code for ${club}: ${code}\nIt is valid for 10 minutes. If you did not ask for it, ignore this message.`,
  }),
};

/**
 * Sends a one-time code to a contact on file (POST /api/Member/RequestCode).
 * Answers the same whether or not the contact is on file, and counts the
 * request either way, so neither the answer nor the limits tell who is a
 * member. Limits (docs/members.md "Limits"): {@link CODES_PER_ADDRESS} codes
 * per contact from one address per 15 minutes; once the contact had
 * {@link CODES_CONTACT_CEILING} codes within an hour from all addresses, one
 * per address per hour. Per address over all contacts, the route's rate limit.
 * @throws AppError VALIDATION_ERROR (contact neither a phone nor an e-mail)
 * @throws AppError MEMBER_CODE_LIMIT (429, details {retryAfterSeconds})
 */
export async function requestMemberCode(
  db: Db,
  key: Buffer,
  send: SendMemberCode,
  input: { contact: string; language: 'he' | 'en' },
  ip: string,
): Promise<MemberCodeSent> {
  const c = normalizeContact(input.contact);
  const hourAgo = sql`now() - interval '1 hour'`;
  const [counts] = await db
    .select({
      contactHour: sql<number>`count(*)::int`,
      pairWindow: sql<number>`count(*) filter (where ${memberCodes.ip} = ${ip} and ${memberCodes.createdAt} > now() - make_interval(secs => ${CODE_WINDOW_SECONDS}))::int`,
      pairHour: sql<number>`count(*) filter (where ${memberCodes.ip} = ${ip})::int`,
      pairOldest: sql<
        string | null
      >`min(${memberCodes.createdAt}) filter (where ${memberCodes.ip} = ${ip} and ${memberCodes.createdAt} > now() - make_interval(secs => ${CODE_WINDOW_SECONDS}))`,
      pairOldestHour: sql<string | null>`min(${memberCodes.createdAt}) filter (where ${memberCodes.ip} = ${ip})`,
    })
    .from(memberCodes)
    .where(and(eq(memberCodes.contact, c.contact), gt(memberCodes.createdAt, hourAgo)));
  const limited = (oldest: string | null, windowSeconds: number) => {
    const until = new Date(oldest ?? Date.now()).getTime() + windowSeconds * 1000;
    throw new AppError('MEMBER_CODE_LIMIT', 'Too many codes asked for', {
      retryAfterSeconds: Math.max(1, Math.ceil((until - Date.now()) / 1000)),
    });
  };
  if (counts.contactHour >= CODES_CONTACT_CEILING && counts.pairHour >= 1) limited(counts.pairOldestHour, 3600);
  if (counts.pairWindow >= CODES_PER_ADDRESS) limited(counts.pairOldest, CODE_WINDOW_SECONDS);

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(Date.now() + MEMBER_CODE_TTL_SECONDS * 1000);
  // A new code replaces the contact's earlier ones (only the latest can sign in).
  await db
    .update(memberCodes)
    .set({ expiresAt: sql`least(${memberCodes.expiresAt}, now())` })
    .where(and(eq(memberCodes.contact, c.contact), isNull(memberCodes.usedAt), gt(memberCodes.expiresAt, sql`now()`)));
  await db
    .insert(memberCodes)
    .values({ contact: c.contact, channel: c.channel, codeHash: hashCode(key, c.contact, code), ip, expiresAt });
  // Codes older than a day are of no use to a limit either.
  await db.delete(memberCodes).where(lt(memberCodes.createdAt, sql`now() - interval '1 day'`));

  const [first] = await clubsOfContact(db, c);
  if (first) {
    const t = TEXT[input.language](code, first.name);
    await send(db, {
      clubId: first.clubId,
      clientId: first.clientId,
      channel: c.channel,
      to: c.contact,
      kind: 'member-code',
      subject: t.subject,
      text: t.text,
      urgent: true,
    });
  }
  return { ok: true, channel: c.channel, expiresInSeconds: MEMBER_CODE_TTL_SECONDS };
}

/** The throttle's keys of a contact (the staff sign-in's table, under a prefix of its own). */
function failureKeys(contact: string, ip: string) {
  const account = `member|${contact}`;
  return { account, pair: `${account}|${ip}` };
}

/**
 * Checks a code (POST /api/Member/SignIn). Wrong codes are throttled exactly
 * as the staff sign-in's wrong passwords (modules/account checkCredentials:
 * per contact *and* address, 5 failures then 60 s doubling to 15 minutes for
 * that address only; from 50 failures of the contact, from an address's first),
 * and each wrong try counts against the latest code: its 5th spends it.
 * @returns the contact and its clubs (each with the member's client)
 * @throws AppError MEMBER_CODE_WRONG (401) for a wrong, expired or spent code, or a contact not on file
 * @throws AppError LOGIN_LOCKED (429, details {retryAfterSeconds}) while this address's delay runs
 */
export async function checkMemberCode(
  db: Db,
  key: Buffer,
  input: { contact: string; code: string },
  ip: string,
): Promise<{ contact: string; clubs: (MemberClub & { clientId: number })[] }> {
  const c = normalizeContact(input.contact);
  const keys = failureKeys(c.contact, ip);
  await refuseWhileDelayed(db, [keys.pair]);
  const [latest] = await db
    .select()
    .from(memberCodes)
    .where(
      and(
        eq(memberCodes.contact, c.contact),
        isNull(memberCodes.usedAt),
        gt(memberCodes.expiresAt, sql`now()`),
        lt(memberCodes.tries, MEMBER_CODE_TRIES),
      ),
    )
    .orderBy(desc(memberCodes.id))
    .limit(1);
  const given = Buffer.from(hashCode(key, c.contact, input.code), 'hex');
  const right = latest && timingSafeEqual(given, Buffer.from(latest.codeHash, 'hex'));
  // Used at most once: of two requests with the right code, one signs in.
  const used =
    right &&
    (
      await db
        .update(memberCodes)
        .set({ usedAt: sql`now()` })
        .where(and(eq(memberCodes.id, latest.id), isNull(memberCodes.usedAt)))
        .returning({ id: memberCodes.id })
    ).length === 1;
  const clubList = used ? await clubsOfContact(db, c) : [];
  if (!used || clubList.length === 0) {
    if (latest && !right)
      await db
        .update(memberCodes)
        .set({ tries: sql`${memberCodes.tries} + 1` })
        .where(eq(memberCodes.id, latest.id));
    await db.insert(auditLog).values({
      clubId: 0,
      userId: null,
      action: 'login.failed',
      entity: 'login',
      entityId: keys.account,
      ip,
    });
    await recordFailure(db, keys.account, keys.pair, { clubId: null, userId: null, origin: { ip } });
    throw new AppError('MEMBER_CODE_WRONG', 'Wrong or expired code');
  }
  await forgetPairFailures(db, [keys.pair]);
  return { contact: c.contact, clubs: clubList };
}
