import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { ENTITY_TEXT, IMPORT_COLUMNS, REPORT_TEXT } from '@venue/domain';
import { createTestApp, signedInAdmin, type Api, type TestContext } from '../../test/harness.js';
import * as factory from '../../test/factories.js';

/**
 * One catalogue of words for the entity lists (packages/domain entity-text.ts,
 * issue "A ten-minute CI…": "one label catalogue for entity exports and
 * import headers too"): the clients, groups, products and users exports, read
 * back with SheetJS (a reader the product does not write with), carry in each
 * language exactly the catalogue's words — Hebrew words in Hebrew, none in
 * English — and every report column and entity word exists in both languages.
 */
const HEBREW = /[\u0590-\u05FF]/;
type Pair = readonly [string, string];

const EXPORTS = [
  { url: '/api/Client/Export', entity: 'client', sheet: 'clients' },
  { url: '/api/Group/Export', entity: 'group', sheet: 'groups' },
  { url: '/api/Product/Export', entity: 'product', sheet: 'products' },
  { url: '/api/User/Export', entity: 'user', sheet: 'users' },
] as const;

describe('entity exports and import headers speak the one catalogue', () => {
  let ctx: TestContext;
  let api: Api;
  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await signedInAdmin(ctx);
    api = a.api;
    const group = await factory.makeGroup(ctx, a.club.id, { name: 'ערב' });
    await factory.makeClient(ctx, a.club.id, { firstName: 'שרה', groupId: group.id });
    await factory.makeProduct(ctx, a.club.id, { name: 'מגבת' });
  });
  afterAll(async () => ctx.close());

  it('every word of the catalogues is written in both languages', () => {
    const parts = [...Object.values(ENTITY_TEXT), ...Object.values(REPORT_TEXT)] as Record<string, Pair>[];
    let words = 0;
    for (const part of parts) {
      for (const [key, [he, en]] of Object.entries(part)) {
        words++;
        expect(he, key).toMatch(HEBREW);
        expect(en.trim(), key).not.toBe('');
        expect(en, key).not.toMatch(HEBREW);
      }
    }
    expect(words).toBeGreaterThan(100);
  });

  it('the import headers are the client list words, so the sample file and the export agree', () => {
    for (const c of IMPORT_COLUMNS) {
      expect([c.he, c.en]).toEqual(ENTITY_TEXT.client[c.key]);
    }
  });

  for (const e of EXPORTS) {
    for (const lang of ['he', 'en'] as const) {
      it(`${e.url} in ${lang}: the sheet title and every header are the catalogue's`, async () => {
        const res = await api.request('GET', `${e.url}?lang=${lang}`);
        expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
        const wb = XLSX.read(res.rawPayload, { type: 'buffer' });
        const i = lang === 'he' ? 0 : 1;
        expect(wb.SheetNames[0]).toBe(ENTITY_TEXT.sheet[e.sheet][i]);
        const [header] = XLSX.utils.sheet_to_json<string[]>(wb.Sheets[wb.SheetNames[0]], { header: 1 });
        const words = Object.values(ENTITY_TEXT[e.entity] as Record<string, Pair>).map((p) => p[i]);
        expect(header.length).toBeGreaterThan(5);
        for (const h of header) {
          expect(words, `${e.url} ${lang} header "${h}"`).toContain(h);
          if (lang === 'he') expect(h).toMatch(HEBREW);
          else expect(h).not.toMatch(HEBREW);
        }
      });
    }
  }
});
