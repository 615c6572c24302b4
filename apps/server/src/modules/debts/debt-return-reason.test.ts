import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDate, localParts, type ReportResult } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { bankReturnFile, masavClientBuying, multipartFile } from '../../../test/masav-bank.js';
import { readXlsx } from '../../../test/upload.js';

/**
 * The bank's MASAV return reason where a cashier or a manager looks at the
 * debt (docs/money.md "MASAV return file"): the client's debts
 * (`GET /api/Debts/GetByClientId/{id}` `returnReason`), the debts report and
 * its .xlsx export (column "Bank return code (MASAV)"). A debt the bank did not
 * return, or one never sent, has none.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

describe("the bank's MASAV return reason on the debt", () => {
  it('is answered with the debt, listed in the debts report and exported', async () => {
    const { api } = await signedInAdmin(ctx);
    await api.request('PUT', '/api/MasavFile/Settings', {
      institutionCode: '87654321',
      sendingInstitution: '54321',
      institutionName: 'Return reason',
    });
    const ids: number[] = [];
    for (const [i, price] of [
      [1, 4000],
      [2, 2600],
    ]) {
      const c = { id: (await masavClientBuying(api, i, price)).clientId };
      ids.push(c.id);
    }
    const manual = (await api.post('/api/Debts', { clientId: ids[0], amount: 500, description: 'towel' })).json();
    expect(manual.returnReason).toBeNull();
    const file = (await api.post('/api/MasavFile?testMode=false')).json();
    const sent = (await api.get(`/api/MasavFile/Download/${file.id}`)).rawPayload;
    const m = multipartFile('return.msv', bankReturnFile(sent, [{ amount: 2600, reason: '4' }]));
    const ret = await api.request('POST', '/api/MasavFile/Return', m.body, m.headers);
    expect(ret.statusCode, ret.body).toBe(200);

    // The client's debts tab reads it from the debt.
    const [returned] = (await api.get(`/api/Debts/GetByClientId/${ids[1]}`)).json();
    expect(returned).toMatchObject({ source: 'masav', open: 2600, masavFileId: null, returnReason: '4' });
    const collected = (await api.get(`/api/Debts/GetByClientId/${ids[0]}`)).json();
    expect(collected.map((d: { open: number; returnReason: string | null }) => [d.open, d.returnReason])).toEqual([
      [0, null],
      [0, null],
    ]);

    // The debts report and its export.
    const today = isoDate(localParts(new Date(), 'Asia/Jerusalem'));
    const period = { period: 'day', anchor: today };
    const body: ReportResult = (await api.post('/api/Report/GetDebts', period)).json();
    const row = body.items.find((r) => r.clientId === ids[1]);
    expect(row).toMatchObject({ returnReason: '4', open: 2600 });
    expect(body.items.filter((r) => r.returnReason != null)).toHaveLength(1);
    for (const [lang, header] of [
      ['en', 'Bank return code (MASAV)'],
      ['he', 'קוד החזרה מהבנק (מס"ב)'],
    ]) {
      const rows = await readXlsx((await api.post('/api/Report/GetDebts/Export', { ...period, lang })).rawPayload);
      const col = rows[0].indexOf(header);
      expect(col, lang).toBeGreaterThan(0);
      expect(rows.filter((r) => r[col] === '4')).toHaveLength(1);
    }
  });
});
