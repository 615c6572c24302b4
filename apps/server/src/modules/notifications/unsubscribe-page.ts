import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { clients, clubs } from '../../db/schema.js';
import { setNotificationChoices } from './settings.js';
import { readUnsubscribeToken } from './unsubscribe.js';

/**
 * The unsubscribe page (docs/notifications.md "Unsubscribe"): in the member's club's words, Hebrew
 * and English together (the page does not know the reader's language), right-to-left first.
 */

const esc = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="he" dir="rtl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:Arial,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5}button{font-size:1rem;padding:.6rem 1.2rem}p[lang=en]{direction:ltr;text-align:left}</style></head><body>${body}</body></html>`;
}

const CHANNEL = { email: ['דוא״ל', 'e-mail'], sms: ['SMS', 'SMS'] } as const;

/** What the link names, with the club's name; null when the token is not valid or the client is gone. */
async function resolve(db: Db, token: string) {
  const t = await readUnsubscribeToken(db, token);
  if (!t) return null;
  const [row] = await db
    .select({ club: clubs.name })
    .from(clients)
    .innerJoin(clubs, eq(clubs.id, clients.clubId))
    .where(and(eq(clients.clubId, t.clubId), eq(clients.id, t.clientId)));
  return row ? { ...t, club: row.club } : null;
}

const INVALID = {
  status: 404,
  html: page('Link not valid', '<h1>הקישור אינו תקף</h1><p lang="en">This link is not valid.</p>'),
};

/** GET /unsubscribe/:token: the question and its one button. */
export async function unsubscribePage(db: Db, token: string): Promise<{ status: number; html: string }> {
  const t = await resolve(db, token);
  if (!t) return INVALID;
  const [he, en] = CHANNEL[t.channel];
  return {
    status: 200,
    html: page(
      t.club,
      `<h1>${esc(t.club)}</h1><p>להפסיק לקבל הודעות ב${he}?</p><p lang="en">Stop notices by ${en}?</p>
<form method="post"><button type="submit">הפסקה / Stop</button></form>`,
    ),
  };
}

/** POST /unsubscribe/:token: turns the channel off for the member (audited, no user) and says so. */
export async function unsubscribeSubmit(db: Db, token: string, ip: string): Promise<{ status: number; html: string }> {
  const t = await resolve(db, token);
  if (!t) return INVALID;
  await setNotificationChoices(db, { clubId: t.clubId, userId: null, ip }, t.clientId, { [t.channel]: false });
  const [he, en] = CHANNEL[t.channel];
  return {
    status: 200,
    html: page(
      t.club,
      `<h1>${esc(t.club)}</h1><p>לא יישלחו אליך עוד הודעות ב${he}.</p><p lang="en">You will get no more notices by ${en}.</p>`,
    ),
  };
}
