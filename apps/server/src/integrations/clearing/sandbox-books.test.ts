import { mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB } from '../../../test/harness.js';
import { FileBooks, MemoryBooks, TableBooks, type SandboxBooks } from './sandbox-books.js';
import { SandboxProvider, SANDBOX_CARDS } from './sandbox.js';

/**
 * The sandbox provider's books (sandbox-books.ts; docs/money.md "The sandbox provider"): the
 * same answers from every kind of books, and — the point of keeping them — a provider opened
 * again on the same books (a restarted server) still knows every charge, so a refund or a
 * status query after a crash finds it.
 */

async function cardToken(p: SandboxProvider, number: string = SANDBOX_CARDS.approve): Promise<string> {
  const t = await p.tokenize({ number, expiry: '12/39', cvv: '123' });
  if (!t.ok) throw new Error('tokenize');
  return t.token;
}

/** The contract every kind of books keeps; `reopen` gives books on the same store (a restart). */
function behavesLikeAProvider(kind: string, make: () => Promise<SandboxBooks>, reopen?: () => Promise<SandboxBooks>) {
  describe(`${kind}: a provider's answers`, () => {
    it('charges once per key, refunds in parts up to the charge, and answers its status by key', async () => {
      const books = await make();
      const p = new SandboxProvider({ books });
      try {
        const token = await cardToken(p);
        const key = `k-${kind}-${Math.random()}`;
        const a = await p.chargeToken({ token, amount: 5000, currency: 376, idempotencyKey: key });
        const b = await p.chargeToken({ token, amount: 5000, currency: 376, idempotencyKey: key });
        expect(a.status).toBe('approved');
        expect(b).toEqual(a);
        expect(p.captured.get(token)).toBe(5000);
        const ref = a.status === 'approved' ? a.providerRef : '';
        expect(await p.queryStatus(key)).toEqual({ status: 'approved', providerRef: ref, amount: 5000 });
        expect((await p.refund({ providerRef: ref, amount: 2000, idempotencyKey: `${key}:r1` })).status).toBe(
          'approved',
        );
        // The same refund key again moves no more money; more than what is left is refused.
        expect((await p.refund({ providerRef: ref, amount: 2000, idempotencyKey: `${key}:r1` })).status).toBe(
          'approved',
        );
        expect(await p.refund({ providerRef: ref, amount: 3001, idempotencyKey: `${key}:r2` })).toEqual({
          status: 'declined',
          reason: 'refund_not_possible',
        });
        expect((await p.refund({ providerRef: ref, amount: 3000, idempotencyKey: `${key}:r3` })).status).toBe(
          'approved',
        );
        expect(await p.queryStatus(key)).toEqual({ status: 'refunded', providerRef: ref });
        expect(await p.queryStatus('never-seen')).toEqual({ status: 'not_found' });
        expect(await p.refund({ providerRef: 'sbx_ch_unknown', amount: 1, idempotencyKey: `${key}:r4` })).toEqual({
          status: 'declined',
          reason: 'refund_not_possible',
        });
      } finally {
        await p.close();
      }
    });

    it('records a decline, and a charge whose answer was lost', async () => {
      const books = await make();
      const p = new SandboxProvider({ books });
      try {
        const key = `d-${kind}-${Math.random()}`;
        const declined = await p.chargeToken({
          token: await cardToken(p, SANDBOX_CARDS.insufficientFunds),
          amount: 100,
          currency: 376,
          idempotencyKey: key,
        });
        expect(declined).toEqual({ status: 'declined', reason: 'insufficient_funds' });
        expect(await p.queryStatus(key)).toEqual({ status: 'declined', reason: 'insufficient_funds' });
        const lost = `l-${kind}-${Math.random()}`;
        await expect(
          p.chargeToken({
            token: await cardToken(p, SANDBOX_CARDS.unknownOutcome),
            amount: 700,
            currency: 376,
            idempotencyKey: lost,
          }),
        ).rejects.toThrow('answer lost');
        expect(await p.queryStatus(lost)).toMatchObject({ status: 'approved', amount: 700 });
      } finally {
        await p.close();
      }
    });

    if (reopen) {
      it('still knows every charge and refund when opened again (a restarted server)', async () => {
        const first = new SandboxProvider({ books: await make() });
        const token = await cardToken(first);
        const key = `r-${kind}-${Math.random()}`;
        const charged = await first.chargeToken({ token, amount: 4200, currency: 376, idempotencyKey: key });
        const ref = charged.status === 'approved' ? charged.providerRef : '';
        await first.refund({ providerRef: ref, amount: 200, idempotencyKey: `${key}:part` });
        await first.close();

        const again = new SandboxProvider({ books: await reopen() });
        try {
          expect(await again.queryStatus(key)).toEqual({ status: 'approved', providerRef: ref, amount: 4200 });
          // The rest given back after the restart; the same charge key charges nothing more.
          expect((await again.refund({ providerRef: ref, amount: 4000, idempotencyKey: `${key}:rest` })).status).toBe(
            'approved',
          );
          expect(await again.refund({ providerRef: ref, amount: 1, idempotencyKey: `${key}:more` })).toEqual({
            status: 'declined',
            reason: 'refund_not_possible',
          });
          expect(await again.chargeToken({ token, amount: 4200, currency: 376, idempotencyKey: key })).toEqual(charged);
          expect(again.captured.get(token)).toBeUndefined();
          expect(await again.queryStatus(key)).toEqual({ status: 'refunded', providerRef: ref });
        } finally {
          await again.close();
        }
      });
    }
  });
}

behavesLikeAProvider('memory', async () => new MemoryBooks());

describe('file books', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-books-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  behavesLikeAProvider(
    'file',
    async () => new FileBooks(dir),
    async () => new FileBooks(dir),
  );

  it('drops a line cut short by a kill, and writes the next change on a line of its own', async () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'sandbox-torn-'));
    try {
      const p = new SandboxProvider({ books: new FileBooks(d) });
      const token = await cardToken(p);
      await p.chargeToken({ token, amount: 100, currency: 376, idempotencyKey: 'whole' });
      await p.close();
      appendFileSync(path.join(d, 'books.jsonl'), '{"op":"charge","book":{"key":"torn","ki');
      const q = new SandboxProvider({ books: new FileBooks(d) });
      expect(await q.queryStatus('torn')).toEqual({ status: 'not_found' });
      await q.chargeToken({ token, amount: 300, currency: 376, idempotencyKey: 'after' });
      await q.close();
      const lines = readFileSync(path.join(d, 'books.jsonl'), 'utf8').trim().split('\n');
      expect(lines.map((l) => (JSON.parse(l) as { book: { key: string } }).book.key)).toEqual(['whole', 'after']);
      const r = new SandboxProvider({ books: new FileBooks(d) });
      expect(await r.queryStatus('after')).toMatchObject({ status: 'approved', amount: 300 });
      await r.close();
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('writes changes that come together with one sync, each answered only once on disk', async () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'sandbox-group-'));
    try {
      const p = new SandboxProvider({ books: new FileBooks(d) });
      const token = await cardToken(p);
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          p.chargeToken({ token, amount: 10 + i, currency: 376, idempotencyKey: `g${i}` }),
        ),
      );
      expect(answers.every((a) => a.status === 'approved')).toBe(true);
      expect(readFileSync(path.join(d, 'books.jsonl'), 'utf8').trim().split('\n')).toHaveLength(50);
      await p.close();
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});

describe.runIf(TEST_DB === 'postgres')('table books (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => database?.dropAll());
  behavesLikeAProvider(
    'table',
    async () => TableBooks.open(database.url!),
    async () => TableBooks.open(database.url!),
  );
});
