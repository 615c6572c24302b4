import { and, eq } from 'drizzle-orm';
import {
  NOTICE_CHANNELS,
  NOTICE_KINDS,
  type NoticeChannel,
  type NoticeKind,
  type NoticeTemplate,
  type TemplateParams,
  type TemplatePreview,
  type TemplatePreviewInput,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { clubs, notificationTemplates } from '../../db/schema.js';
import type { Actor } from '../../lib/actor.js';
import { audit } from '../../lib/audit.js';

/**
 * The wording of each notice (docs/notifications.md "Templates"): built-in defaults in Hebrew and
 * English per channel, which a club may replace with its own. `{{field}}` names a value of the
 * notice; an unknown field is left as written.
 */

/** The fields a notice fills (what a template may name). */
export const TEMPLATE_FIELDS = ['club', 'name', 'endDate', 'amount', 'balance', 'reason', 'payLink', 'docLink', 'days'];

type Wording = { subject: string; body: string };
type Defaults = Record<NoticeKind, Record<'he' | 'en', Record<NoticeChannel, Wording>>>;

const w = (subject: string, email: string, sms: string) => ({
  email: { subject, body: email },
  sms: { subject: '', body: sms },
});

/** Built-in wording (Hebrew first, the product's default language). */
export const DEFAULT_TEMPLATES: Defaults = {
  'renewal-coming': {
    he: w(
      '{{club}}: המנוי שלך יחודש בקרוב',
      'שלום {{name}},\nהמנוי שלך ב{{club}} מסתיים ב־{{endDate}} ויחודש אוטומטית באמצעי התשלום השמור.\nלפרטים ולעדכון: {{payLink}}',
      '{{club}}: המנוי שלך מסתיים ב־{{endDate}} ויחודש אוטומטית. לפרטים: {{payLink}}',
    ),
    en: w(
      '{{club}}: your subscription renews soon',
      'Hello {{name}},\nYour subscription at {{club}} ends on {{endDate}} and will renew automatically with your stored payment method.\nDetails: {{payLink}}',
      '{{club}}: your subscription ends on {{endDate}} and will renew automatically. Details: {{payLink}}',
    ),
  },
  renewed: {
    he: w(
      '{{club}}: המנוי חודש',
      'שלום {{name}},\nהמנוי שלך ב{{club}} חודש עד {{endDate}}. סכום החיוב: {{amount}}.\nהמסמך מצורף, והוא גם באזור האישי: {{docLink}}',
      '{{club}}: המנוי חודש עד {{endDate}} ({{amount}}). המסמך: {{docLink}}',
    ),
    en: w(
      '{{club}}: subscription renewed',
      'Hello {{name}},\nYour subscription at {{club}} was renewed until {{endDate}}. Amount charged: {{amount}}.\nThe document is attached and in your member area: {{docLink}}',
      '{{club}}: subscription renewed until {{endDate}} ({{amount}}). Document: {{docLink}}',
    ),
  },
  'renewal-failed': {
    he: w(
      '{{club}}: חידוש המנוי נכשל',
      'שלום {{name}},\nלא הצלחנו לחדש את המנוי שלך ב{{club}}: החיוב בסך {{amount}} לא עבר.\nאפשר לשלם כאן: {{payLink}}',
      '{{club}}: חידוש המנוי נכשל, החיוב ({{amount}}) לא עבר. לתשלום: {{payLink}}',
    ),
    en: w(
      '{{club}}: subscription renewal failed',
      'Hello {{name}},\nWe could not renew your subscription at {{club}}: the charge of {{amount}} was declined.\nYou can pay here: {{payLink}}',
      '{{club}}: renewal failed, the charge ({{amount}}) was declined. Pay here: {{payLink}}',
    ),
  },
  'masav-rejected': {
    he: w(
      '{{club}}: הוראת הקבע נדחתה',
      'שלום {{name}},\nהבנק החזיר את החיוב בהוראת קבע בסך {{amount}}.\nאפשר לשלם כאן: {{payLink}}',
      '{{club}}: הבנק החזיר את הוראת הקבע ({{amount}}). לתשלום: {{payLink}}',
    ),
    en: w(
      '{{club}}: direct debit returned',
      'Hello {{name}},\nYour bank returned the direct debit of {{amount}}.\nYou can pay here: {{payLink}}',
      '{{club}}: your bank returned the direct debit ({{amount}}). Pay here: {{payLink}}',
    ),
  },
  'new-debt': {
    he: w(
      '{{club}}: חוב חדש',
      'שלום {{name}},\nנרשם חוב בסך {{amount}} ב{{club}}.\nאפשר לשלם כאן: {{payLink}}',
      '{{club}}: נרשם חוב בסך {{amount}}. לתשלום: {{payLink}}',
    ),
    en: w(
      '{{club}}: a new debt',
      'Hello {{name}},\nA debt of {{amount}} was registered at {{club}}.\nYou can pay here: {{payLink}}',
      '{{club}}: a debt of {{amount}} was registered. Pay here: {{payLink}}',
    ),
  },
  'low-balance': {
    he: w(
      '{{club}}: היתרה נמוכה',
      'שלום {{name}},\nהיתרה שלך ב{{club}} היא {{balance}}.\nלטעינה: {{payLink}}',
      '{{club}}: היתרה שלך {{balance}}. לטעינה: {{payLink}}',
    ),
    en: w(
      '{{club}}: low balance',
      'Hello {{name}},\nYour balance at {{club}} is {{balance}}.\nTop up here: {{payLink}}',
      '{{club}}: your balance is {{balance}}. Top up: {{payLink}}',
    ),
  },
  'subscription-ending': {
    he: w(
      '{{club}}: המנוי מסתיים',
      'שלום {{name}},\nהמנוי שלך ב{{club}} מסתיים ב־{{endDate}} ואינו מתחדש אוטומטית.\nלחידוש: {{payLink}}',
      '{{club}}: המנוי שלך מסתיים ב־{{endDate}}. לחידוש: {{payLink}}',
    ),
    en: w(
      '{{club}}: your subscription is ending',
      'Hello {{name}},\nYour subscription at {{club}} ends on {{endDate}} and does not renew automatically.\nRenew here: {{payLink}}',
      '{{club}}: your subscription ends on {{endDate}}. Renew here: {{payLink}}',
    ),
  },
};

/** The club's wording of a notice, or the built-in one (`custom` false). */
export async function templateOf(
  db: Db | Tx,
  clubId: number,
  kind: NoticeKind,
  lang: 'he' | 'en',
  channel: NoticeChannel,
): Promise<Wording & { custom: boolean }> {
  const [row] = await db
    .select()
    .from(notificationTemplates)
    .where(
      and(
        eq(notificationTemplates.clubId, clubId),
        eq(notificationTemplates.kind, kind),
        eq(notificationTemplates.lang, lang),
        eq(notificationTemplates.channel, channel),
      ),
    );
  return row
    ? { subject: row.subject, body: row.body, custom: true }
    : { ...DEFAULT_TEMPLATES[kind][lang][channel], custom: false };
}

/** Fills `{{field}}` with the values (an unknown field stays as written). */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, k: string) => values[k] ?? all);
}

const htmlEscape = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The e-mail's HTML part from its text: escaped, links made clickable, right-to-left for Hebrew, and
 * the unsubscribe line at the foot when given.
 */
export function emailHtml(text: string, lang: 'he' | 'en', unsubscribe?: { url: string; label: string }): string {
  const body = htmlEscape(text)
    .replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')
    .replace(/\n/g, '<br>');
  const foot = unsubscribe
    ? `<p style="color:#777;font-size:12px"><a href="${htmlEscape(unsubscribe.url)}">${htmlEscape(unsubscribe.label)}</a></p>`
    : '';
  return `<!doctype html><html lang="${lang}" dir="${lang === 'he' ? 'rtl' : 'ltr'}"><body style="font-family:Arial,sans-serif"><p>${body}</p>${foot}</body></html>`;
}

/** Parts an SMS of this text takes: GSM-7 160/153, or UCS-2 (Hebrew) 70/67 characters. */
export function smsParts(text: string): number {
  // eslint-disable-next-line no-control-regex
  const gsm = /^[\x0A\x0D\x20-\x7E£¥èéùìòÇØøÅå_ÆæßÉ¤¡ÄÖÑÜ§¿äöñüà]*$/.test(text);
  const [one, many] = gsm ? [160, 153] : [70, 67];
  return text.length <= one ? 1 : Math.ceil(text.length / many);
}

/** GET /api/Notification/Template: every notice's wording of the club (its own or the default), by kind, language and channel. */
export async function listTemplates(db: Db, clubId: number): Promise<NoticeTemplate[]> {
  const own = await db.select().from(notificationTemplates).where(eq(notificationTemplates.clubId, clubId));
  const out: NoticeTemplate[] = [];
  for (const kind of NOTICE_KINDS)
    for (const lang of ['he', 'en'] as const)
      for (const channel of NOTICE_CHANNELS) {
        const o = own.find((r) => r.kind === kind && r.lang === lang && r.channel === channel);
        const d = DEFAULT_TEMPLATES[kind][lang][channel];
        out.push({
          kind,
          lang,
          channel,
          subject: o ? o.subject : d.subject,
          body: o ? o.body : d.body,
          custom: Boolean(o),
          fields: TEMPLATE_FIELDS,
        });
      }
  return out;
}

/** PUT /api/Notification/Template: the club's own wording of one notice (SMS has no subject). Audited. */
export async function saveTemplate(db: Db, actor: Actor, input: TemplatePreviewInput): Promise<NoticeTemplate> {
  const p: TemplateParams = { kind: input.kind, lang: input.lang, channel: input.channel };
  return db.transaction(async (tx) => {
    const before = await templateOf(tx, actor.clubId, p.kind, p.lang, p.channel);
    const values = { subject: p.channel === 'sms' ? '' : input.subject, body: input.body, updatedAt: new Date() };
    await tx
      .insert(notificationTemplates)
      .values({ clubId: actor.clubId, ...p, ...values })
      .onConflictDoUpdate({
        target: [
          notificationTemplates.clubId,
          notificationTemplates.kind,
          notificationTemplates.lang,
          notificationTemplates.channel,
        ],
        set: values,
      });
    await audit(tx, actor, {
      action: 'update',
      entity: 'notificationTemplate',
      entityId: `${p.kind}/${p.lang}/${p.channel}`,
      before,
      after: values,
    });
    return { ...p, subject: values.subject, body: values.body, custom: true, fields: TEMPLATE_FIELDS };
  });
}

/** POST /api/Notification/Template/Reset: back to the built-in wording. Audited. */
export async function resetTemplate(db: Db, actor: Actor, p: TemplateParams): Promise<NoticeTemplate> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(notificationTemplates)
      .where(
        and(
          eq(notificationTemplates.clubId, actor.clubId),
          eq(notificationTemplates.kind, p.kind),
          eq(notificationTemplates.lang, p.lang),
          eq(notificationTemplates.channel, p.channel),
        ),
      )
      .returning();
    if (removed.length) {
      await audit(tx, actor, {
        action: 'delete',
        entity: 'notificationTemplate',
        entityId: `${p.kind}/${p.lang}/${p.channel}`,
        before: { subject: removed[0].subject, body: removed[0].body },
      });
    }
    const d = DEFAULT_TEMPLATES[p.kind][p.lang][p.channel];
    return { ...p, ...d, custom: false, fields: TEMPLATE_FIELDS };
  });
}

/** Sample values of a preview, in the preview's language. */
const SAMPLE: Record<'he' | 'en', Record<string, string>> = {
  he: { name: 'דינה', endDate: '31/12/2026', amount: '‏150.00 ₪', balance: '‏12.00 ₪', reason: '03', days: '7' },
  en: { name: 'Dina', endDate: '31/12/2026', amount: '₪150.00', balance: '₪12.00', reason: '03', days: '7' },
};

/** POST /api/Notification/Template/Preview: a wording filled with sample values and the club's name (nothing saved). */
export async function previewTemplate(
  db: Db,
  clubId: number,
  input: TemplatePreviewInput,
  senderName: string,
  base: string,
): Promise<TemplatePreview> {
  const [club] = await db.select({ name: clubs.name }).from(clubs).where(eq(clubs.id, clubId));
  const values = {
    ...SAMPLE[input.lang],
    club: senderName || club?.name || '',
    payLink: `${base}/m`,
    docLink: `${base}/m`,
  };
  const text = fill(input.body, values);
  return {
    subject: input.channel === 'email' ? fill(input.subject, values) : '',
    text,
    html: input.channel === 'email' ? emailHtml(text, input.lang) : null,
    smsParts: input.channel === 'sms' ? smsParts(text) : 0,
  };
}
