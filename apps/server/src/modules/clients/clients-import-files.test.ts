import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { multipart } from '../../../test/upload.js';
import { decodeText } from '../../lib/sheet-read.js';
import { importPersonalId } from './clients.import.js';

/**
 * Client import of real files (issue 19): the same four rows saved by
 * LibreOffice as .xls and .ods, and by iconv as a Windows-1255 CSV (the
 * "CSV" of Excel on a Hebrew Windows), read alike; ID numbers that a
 * spreadsheet stored as numbers get their leading zeros back and are checked
 * by the check digit; an ID twice in the file is flagged on each of its rows;
 * a PDF or an image is refused naming what it is. The fixtures
 * (test/fixtures/import/) were made with `soffice --convert-to xls|ods|pdf`
 * and `iconv -t WINDOWS-1255` from clients-utf8.csv.
 */

const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures/import');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const upload = async (api: Awaited<ReturnType<typeof signedInAdmin>>['api'], name: string, preview: boolean) => {
  const m = multipart(fixture(name), name);
  return api.request('POST', `/api/Client/ImportClients?preview=${preview}`, m.body, m.headers);
};

describe('client import of .xls, .ods and Windows-1255 CSV files', () => {
  it('reads the four formats alike: IDs with their zeros, duplicates flagged per row, the check digit', async () => {
    const { api } = await signedInAdmin(ctx);
    const answers = [];
    for (const name of ['clients-utf8.csv', 'clients-windows-1255.csv', 'clients.xls', 'clients.ods']) {
      const res = await upload(api, name, true);
      expect(res.statusCode, name).toBe(200);
      answers.push(res.json());
    }
    const [utf8] = answers;
    expect(utf8).toMatchObject({ preview: true, rows: 4, created: 0 });
    // Row 4 holds row 2's ID without its leading zero (12345674): the same person twice.
    expect(utf8.errors).toEqual([
      { row: 2, field: 'personalId', message: 'personalIdTwiceInFile' },
      { row: 4, field: 'personalId', message: 'personalIdTwiceInFile' },
      { row: 5, field: 'personalId', message: 'invalidPersonalId' },
    ]);
    expect(utf8.sample.map((r: { firstName: string; personalId: string }) => [r.firstName, r.personalId])).toEqual([
      ['שרה', '012345674'],
      ['רחל', '003456787'],
      ['מרים', '012345674'],
      ['לאה', '203456780'],
    ]);
    expect(utf8.sample[0]).toMatchObject({
      lastName: 'לוי',
      city: 'ירושלים',
      cardSerial: '710001',
      subscriptionStart: '2026-01-01',
      subscriptionEnd: '2026-12-31',
    });
    // Windows-1255, .xls and .ods (IDs as number cells there) answer exactly what UTF-8 does.
    for (const other of answers.slice(1)) {
      expect(other.errors).toEqual(utf8.errors);
      expect(other.sample).toEqual(utf8.sample);
    }
    // Nothing was written, and a commit of a file with errors is refused.
    expect((await upload(api, 'clients-windows-1255.csv', false)).statusCode).toBe(422);
    expect((await api.get('/api/Client')).json().total).toBe(0);
  });

  it('imports a Windows-1255 CSV and an .xls, storing IDs as nine-digit text', async () => {
    for (const name of ['ok-windows-1255.csv', 'ok.xls']) {
      const { api } = await signedInAdmin(ctx);
      const res = await upload(api, name, false);
      expect(res.statusCode, name).toBe(200);
      expect(res.json()).toMatchObject({ created: 2, errors: [] });
      const items = (await api.get('/api/Client?sort=number')).json().items;
      expect(items.map((c: { firstName: string; lastName: string; personalId: string }) => c)).toMatchObject([
        { firstName: 'אסתר', lastName: 'מזרחי', personalId: '012345674', cardSerial: '720001' },
        { firstName: 'דבורה', lastName: 'פרץ', personalId: '003456787', cardSerial: '720002' },
      ]);
    }
  });

  it('names a wrong file type: a PDF, an image, text in an unknown encoding', async () => {
    const { api } = await signedInAdmin(ctx);
    const pdf = await upload(api, 'not-a-spreadsheet.pdf', true);
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json()).toMatchObject({
      code: 'UNSUPPORTED_FILE_TYPE',
      details: [{ path: 'file', message: 'fileIsPdf' }],
    });
    const png = multipart(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), 'clients.csv');
    const image = await api.request('POST', '/api/Client/ImportClients?preview=true', png.body, png.headers);
    expect(image.json().details).toEqual([{ path: 'file', message: 'fileIsImage' }]);
    // 0xFF is undefined in Windows-1255 and never valid UTF-8.
    const odd = multipart(Buffer.from([0x61, 0x2c, 0x62, 0x0a, 0xff, 0xfe, 0x2c, 0x63]), 'clients.csv');
    const unknown = await api.request('POST', '/api/Client/ImportClients?preview=true', odd.body, odd.headers);
    expect(unknown.json().details).toEqual([{ path: 'file', message: 'unknownEncoding' }]);
  });
});

describe('a CSV whose quoting is broken', () => {
  it('refuses a quote never closed, naming its row and column, and writes nothing (preview or commit)', async () => {
    const { api } = await signedInAdmin(ctx);
    // Row 3's last name opens a quote that nothing closes: read as one field, it would hold a line
    // break and every row after it.
    const csv = 'שם פרטי,שם משפחה,עיר\nשרה,לוי,ירושלים\nרחל,"כהן,חיפה\nלאה,מזרחי,צפת\n';
    for (const preview of [true, false]) {
      const m = multipart(Buffer.from(csv, 'utf8'), 'clients.csv');
      const res = await api.request('POST', `/api/Client/ImportClients?preview=${preview}`, m.body, m.headers);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'CSV_MALFORMED',
        details: { reason: 'quoteNotClosed', row: 3, column: 2 },
      });
    }
    const list = await api.request('GET', '/api/Client');
    expect(list.json().items).toEqual([]);
  });

  it('still reads quoted fields with commas, line breaks and doubled quotes, and a bare quote in a word', async () => {
    const { api } = await signedInAdmin(ctx);
    const csv = 'שם פרטי,שם משפחה,עיר,הודעה ללקוח\nשרה,"לוי, בת דוד",ת"א,"שורה\nשנייה"\nרחל,"כהן ""הגדולה""",חיפה,\n';
    const m = multipart(Buffer.from(csv, 'utf8'), 'clients.csv');
    const res = await api.request('POST', '/api/Client/ImportClients?preview=true', m.body, m.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ rows: 2, errors: [] });
    expect(res.json().sample.map((r: { lastName: string; city: string }) => [r.lastName, r.city])).toEqual([
      ['לוי, בת דוד', 'ת"א'],
      ['כהן "הגדולה"', 'חיפה'],
    ]);
    expect(res.json().sample[0].messageToClient).toBe('שורה\nשנייה');
  });
});

describe('import helpers', () => {
  it('pads an ID of 5–8 digits to nine and keeps anything else as typed', () => {
    expect(importPersonalId(12345674)).toBe('012345674');
    expect(importPersonalId('3456787')).toBe('003456787');
    expect(importPersonalId('012-345-674')).toBe('012345674');
    expect(importPersonalId('1234')).toBe('1234');
    expect(importPersonalId('A1234567')).toBe('A1234567');
    expect(importPersonalId(null)).toBe('');
  });

  it('tells UTF-8 from Windows-1255 (checked against iconv’s output)', () => {
    expect(decodeText(fixture('clients-utf8.csv'))?.encoding).toBe('utf-8');
    const w = decodeText(fixture('clients-windows-1255.csv'));
    expect(w?.encoding).toBe('windows-1255');
    expect(w?.text).toBe(fixture('clients-utf8.csv').toString('utf8'));
  });
});
