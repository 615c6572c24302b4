import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDate, localParts, plusDays } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { SANDBOX_CARDS } from '../../integrations/clearing/sandbox.js';

const today = () => isoDate(localParts(new Date(), 'Asia/Jerusalem'));
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

function multipart(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = '----venue' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('licenses (seed 000 §7, seed 001 §5 §8)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('a License item takes one from the pool: "Not enough licenses" when empty, a warning when low', async () => {
    const { api } = await signedInAdmin(ctx, { licensesAmount: 11 });
    const c = (await api.post('/api/Client', { firstName: 'L' })).json();
    const buy = (k: string) =>
      api.post('/api/Client/AdminPurchase', {
        clientId: c.id,
        purchaseItems: [{ itemType: 6, unitPrice: 3000 }],
        payments: [{ method: 0, amount: 3000 }],
        idempotencyKey: k,
      });
    const first = await buy('lic-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().warnings).toEqual(['LICENSES_LOW']);
    expect(first.json().items[0].expiry > today()).toBe(true);
    expect((await api.get('/api/Club/GetCurrent')).json().licancesAmount).toBe(10);
    const s2 = await signedInAdmin(ctx, { licensesAmount: 0 });
    const c2 = (await s2.api.post('/api/Client', { firstName: 'L' })).json();
    const none = await s2.api.post('/api/Client/AdminPurchase', {
      clientId: c2.id,
      purchaseItems: [{ itemType: 6, unitPrice: 3000 }],
      payments: [{ method: 0, amount: 3000 }],
      idempotencyKey: 'lic-none',
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().code).toBe('NOT_ENOUGH_LICENSES');
  });

  it('buys licenses by card on the sandbox payment page: loaded once', async () => {
    const { api, club } = await signedInAdmin(ctx, { licensesAmount: 5 });
    const bad = await api.post('/api/getBuyLink', {
      email: 'a@b.co',
      customerName: 'Club',
      externalClubId: club.externalClubId,
      amount: 100,
      qty: 50,
      type: 2,
    });
    expect(bad.statusCode).toBe(400);
    const link = await api.post('/api/getBuyLink', {
      email: 'a@b.co',
      customerName: 'Club',
      externalClubId: club.externalClubId,
      amount: 50 * 3000,
      qty: 50,
      type: 2,
    });
    expect(link.statusCode, link.body).toBe(200);
    const url = link.json().url as string;
    expect(url).toMatch(/^\/sandbox\/pay\//);
    const pageRes = await ctx.app.inject({ method: 'GET', url });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.body).toContain('<form');
    const post = (number: string) =>
      ctx.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ number, expiry: '12/39', cvv: '123' }).toString(),
      });
    expect((await post(SANDBOX_CARDS.decline)).statusCode).toBe(402);
    expect((await api.get('/api/Club/GetCurrent')).json().licancesAmount).toBe(5);
    expect((await post(SANDBOX_CARDS.approve)).statusCode).toBe(200);
    expect((await post(SANDBOX_CARDS.approve)).statusCode).toBe(200); // resubmitted: loaded once
    expect((await api.get('/api/Club/GetCurrent')).json().licancesAmount).toBe(55);
  });

  it('bank-transfer request: every validation of seed 001 §5, file checked by content', async () => {
    const { api } = await signedInAdmin(ctx);
    const good = {
      quantity: '40',
      amount: String(40 * 3000),
      transferDate: today(),
      fundsCondition: 'true',
      bankCode: '12',
      branch: '571',
      account: '123456',
      reference: '998877',
    };
    const send = async (fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) => {
      const m = multipart(fields, file);
      return api.request('POST', '/api/AddLicensesRequest/HandleAddLicensesRequest', m.body, {
        'content-type': m.contentType,
      });
    };
    const pdf = { name: 'ref.pdf', type: 'application/pdf', data: PDF };
    const fieldErr = async (patch: Record<string, string>, path: string) => {
      const r = await send({ ...good, ...patch }, pdf);
      expect(r.statusCode, `${path}: ${r.body}`).toBe(400);
      expect(r.json().details.map((d: { path: string }) => d.path)).toContain(path);
    };
    await fieldErr({ quantity: '39' }, 'quantity');
    await fieldErr({ quantity: '40.5' }, 'quantity');
    await fieldErr({ amount: '1000' }, 'amount');
    await fieldErr({ transferDate: plusDays(today(), 2) }, 'transferDate');
    await fieldErr({ fundsCondition: 'false' }, 'fundsCondition');
    await fieldErr({ bankCode: '99' }, 'bankCode');
    await fieldErr({ branch: '57' }, 'branch');
    await fieldErr({ account: '12345' }, 'account');
    await fieldErr({ account: '123456789012345678901' }, 'account');
    await fieldErr({ reference: '12-34' }, 'reference');
    expect((await send(good)).json().code).toBe('FILE_REQUIRED');
    const fake = await send(good, { name: 'ref.pdf', type: 'application/pdf', data: Buffer.from('MZ not a pdf') });
    expect(fake.statusCode).toBe(415);
    expect(fake.json().code).toBe('UNSUPPORTED_FILE_TYPE');
    const big = await send(good, {
      name: 'ref.png',
      type: 'image/png',
      data: Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]),
    });
    expect(big.statusCode).toBe(413);
    const ok = await send(good, { name: 'ref.png', type: 'image/png', data: PNG });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ quantity: 40, status: 1, fileType: 'png', accountMasked: '****456' });
    expect(ok.body).not.toContain('123456');
    expect((await api.get('/api/AddLicensesRequest/GetAddLicensesRequestsCount')).json().count).toBe(1);
    expect((await api.get('/api/getLicenseRequest/?licenseType=1')).json()).toHaveLength(1);
    // The club may cancel its own request, not approve it.
    expect((await api.patch(`/api/AddLicensesRequest/${ok.json().id}`, { status: 2 })).statusCode).toBe(403);
    expect((await api.patch(`/api/AddLicensesRequest/${ok.json().id}`, { status: 4 })).json().status).toBe(4);
  });
});
