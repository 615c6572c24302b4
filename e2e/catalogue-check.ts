import type { Page } from '@playwright/test';

/**
 * The catalogue check of a Hebrew screen (issue 19 "One format"; docs/console-management.md
 * "Every string through the catalogues"), shared by the walk over every screen (i18n.spec.ts)
 * and the journeys that open a screen's states the walk does not reach (front-desk.spec.ts: a
 * member open, a sale's dialog).
 */

/** Latin words a Hebrew screen may show: proper names, standards, file types and units (case-sensitive). */
export const LATIN_ALLOWED = new Set([
  'PDF',
  'CSV',
  'XLSX',
  'Excel',
  'MASAV',
  'ID',
  'SMS',
  'URL',
  'API',
  'IP',
  'USB',
  'QR',
  'PIN',
  'VAT',
  'IBAN',
  'CVV',
  'Webhook',
  'HTTPS',
  'HTTP',
  'JSON',
  'Hebcal',
  'Google',
  'iCal',
  'ICS',
]);

const RAW_KEY = /^[a-z][a-zA-Z0-9]*(?:\.[a-zA-Z0-9_-]+)+$/;

export interface Finding {
  route: string;
  what: string;
}

/** The Hebrew screen's problems: raw keys, English words, missing keys, a wrong tab title. */
export async function inspect(page: Page, route: string, clubName: string): Promise<Finding[]> {
  const found = await page.evaluate(
    ({ allowed, rawKey }) => {
      const RAW = new RegExp(rawKey);
      const out: string[] = [];
      const visible = (el: Element) =>
        el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && el.getClientRects().length > 0;
      // The club's data and codes: marked dir="auto" / translate="no", or shown as code (<code>, <kbd>).
      const isData = (el: Element) =>
        Boolean(el.closest('[dir="auto"], [translate="no"], code, kbd, samp, input, textarea'));
      // Text declared in another language (the language switch names English in English).
      const otherLang = (el: Element) => !(el.closest('[lang]')?.getAttribute('lang') ?? 'he').startsWith('he');
      const check = (text: string, el: Element, kind: string) => {
        const t = text.trim();
        if (!t) return;
        for (const token of t.split(/\s+/)) {
          const bare = token.replace(/^[^\w]+|[^\w]+$/g, '');
          if (RAW.test(bare)) out.push(`raw key ${kind}: "${bare}"`);
        }
        if (isData(el) || otherLang(el)) return;
        // Words of two letters or more, not letters inside a code with digits (#1677FF, A4).
        for (const w of t.match(/(?<![\w#])[A-Za-z][A-Za-z'’-]*[A-Za-z](?!\w)/g) ?? []) {
          if (!allowed.includes(w) && !RAW.test(w)) out.push(`English ${kind}: "${w}" in "${t.slice(0, 80)}"`);
        }
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || el.closest('script, style, noscript, template') || !visible(el)) continue;
        check(n.textContent ?? '', el, 'text');
      }
      for (const el of document.body.querySelectorAll('[placeholder], [title]')) {
        if (!visible(el)) continue;
        const ph = el.getAttribute('placeholder');
        if (ph) check(ph, el, 'placeholder');
        const title = el.getAttribute('title');
        if (title) check(title, el, 'tooltip');
      }
      for (const k of window.__venueMissingKeys ?? []) out.push(`missing key: ${k}`);
      window.__venueMissingKeys = [];
      return [...new Set(out)];
    },
    { allowed: [...LATIN_ALLOWED], rawKey: RAW_KEY.source },
  );
  const title = await page.title();
  if (!title.endsWith(` — ${clubName}`) || title === ` — ${clubName}`)
    found.push(`tab title "${title}" is not "<screen> — ${clubName}"`);
  return found.map((what) => ({ route, what }));
}
