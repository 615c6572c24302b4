import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { createTestApp, signedInAdmin, type Api, type TestContext } from '../../test/harness.js';
import { multipart, xlsxOf } from '../../test/upload.js';
import { readSpreadsheetIsolated } from './sheet-isolated.js';
import { readSpreadsheet, SHEET_LIMITS } from './sheet-read.js';

/**
 * Spreadsheet input that cannot hurt the server (docs/security.md
 * "Spreadsheet input"): small files built to make the reader do work in
 * proportion to what they declare — a CSV header of 5,000 commas over 2,000
 * empty lines (41 s of a frozen server before), an xlsx declaring
 * A1:T400000 in its `<dimension>` (26 s), a deflate bomb (8 s, +170 MB) — are
 * refused or read by what they hold, on a worker thread, while the server
 * keeps answering.
 */
describe('spreadsheet limits', () => {
  let ctx: TestContext;
  let api: Api;
  beforeAll(async () => {
    ctx = await createTestApp();
    api = (await signedInAdmin(ctx)).api;
  });
  afterAll(async () => ctx.close());

  const preview = (buf: Buffer, name: string) => {
    const m = multipart(buf, name);
    return api.request('POST', '/api/Client/ImportClients?preview=true', m.body, m.headers);
  };

  /** Runs `call` while timing /api/health every 50 ms: the slowest health answer (ms). */
  async function healthDuring<T>(call: () => Promise<T>): Promise<{ result: T; slowestHealthMs: number }> {
    let slowest = 0;
    let running = true;
    const probe = (async () => {
      while (running) {
        const t = performance.now();
        await ctx.app.inject({ url: '/api/health' });
        slowest = Math.max(slowest, performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const result = await call();
    running = false;
    await probe;
    return { result, slowestHealthMs: slowest };
  }

  it('a 7 KB CSV of 5,000 columns over 2,000 empty lines: 413 columns, the server answering meanwhile', async () => {
    const csv = Buffer.from(`First name${','.repeat(5_000)}${'\n'.repeat(2_000)}`);
    expect(csv.length).toBeLessThan(8_000);
    const { result: res, slowestHealthMs } = await healthDuring(() => preview(csv, 'bomb.csv'));
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ code: 'SHEET_TOO_LARGE', details: { reason: 'columns' } });
    expect(slowestHealthMs).toBeLessThan(1_000);
  });

  it('an xlsx declaring A1:T400000 is read by the cells it holds', async () => {
    const small = await xlsxOf(['First name', 'Last name'], [['Dana', 'Levi']]);
    const files = unzipSync(small);
    const name = Object.keys(files).find((f) => /^xl\/worksheets\/sheet1\.xml$/.test(f))!;
    const xml = strFromU8(files[name]);
    files[name] = strToU8(
      /<dimension [^>]*\/>/.test(xml)
        ? xml.replace(/<dimension [^>]*\/>/, '<dimension ref="A1:T400000"/>')
        : xml.replace('<sheetViews', '<dimension ref="A1:T400000"/><sheetViews'),
    );
    const declared = Buffer.from(zipSync(files));
    const t = performance.now();
    const read = readSpreadsheet(declared);
    expect(performance.now() - t).toBeLessThan(2_000);
    expect(read.rows).toEqual([
      ['First name', 'Last name'],
      ['Dana', 'Levi'],
    ]);
    const res = await preview(declared, 'declared.xlsx');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ rows: 1, errors: [] });
  });

  it('a deflate bomb is refused from its zip directory, before anything is inflated', async () => {
    const small = await xlsxOf(['First name'], [['Dana']]);
    const files = unzipSync(small);
    files['xl/media/pad.bin'] = new Uint8Array(SHEET_LIMITS.unzippedBytes + 1024 * 1024); // zeros: compresses ~1000:1
    const bomb = Buffer.from(zipSync(files, { level: 1 }));
    expect(bomb.length).toBeLessThan(1_000_000);
    const { result: res, slowestHealthMs } = await healthDuring(() => preview(bomb, 'bomb.xlsx'));
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().details.reason).toMatch(/^(unzippedBytes|ratio)$/);
    expect(slowestHealthMs).toBeLessThan(1_000);
  });

  it('a reading that runs over its time is stopped (SHEET_TOO_LARGE time), the thread ended', async () => {
    const big = Buffer.from(`First name,Last name\n${'Dana,Levi\n'.repeat(20_000)}`);
    await expect(readSpreadsheetIsolated(big, { timeMs: 1, heapMb: 64 })).rejects.toMatchObject({
      code: 'SHEET_TOO_LARGE',
      details: { reason: 'time' },
    });
    const ok = await readSpreadsheetIsolated(big);
    expect(ok.rows).toHaveLength(20_001);
  });
});
