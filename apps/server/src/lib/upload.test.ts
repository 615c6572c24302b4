import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { IMPORT_MAX_BYTES } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../test/harness.js';
import { multipart } from '../../test/upload.js';

/**
 * The upload limit is enforced whatever the chunking of the body
 * (docs/security.md "Uploads"): a file over the limit is always a 413
 * FILE_TOO_LARGE and nothing is imported — never its first 5 MB parsed as if
 * they were the file (busboy marks the stream `truncated` after its last
 * chunk, which @fastify/multipart's `toBuffer` does not always see).
 */
describe('uploads over the limit', () => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => ctx.close());

  /**
   * POSTs `body` over a real socket in chunks of `chunk` bytes, as a browser on a network sends it;
   * with `pauseAt`, the bytes up to that offset go first and the rest 100 ms later (a file that
   * reaches the limit exactly at the end of a network read).
   */
  function post(path: string, body: Buffer, headers: Record<string, string>, chunk: number, pauseAt?: number) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        `${base}${path}`,
        { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', (e) => ((e as { code?: string }).code === 'EPIPE' ? undefined : reject(e)));
      let at = 0;
      let paused = pauseAt == null;
      const write = () => {
        while (at < body.length) {
          const end = !paused && at < pauseAt! ? Math.min(at + chunk, pauseAt!) : at + chunk;
          const ok = req.write(body.subarray(at, end));
          at = end;
          if (!paused && at === pauseAt) {
            paused = true;
            return void setTimeout(write, 100);
          }
          if (!ok) return void req.once('drain', write);
        }
        req.end();
      };
      write();
    });
  }

  it('a CSV over 5 MB is refused 413 at every size and chunking past the limit, and imports nothing', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    const cookies = health.cookies as { name: string; value: string }[];
    const xsrf = cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    const secret = cookies.find((c) => c.name === '_csrf')?.value ?? '';
    const auth = {
      authorization: `Bearer ${api.token}`,
      cookie: `_csrf=${secret}; XSRF-TOKEN=${xsrf}`,
      'x-xsrf-token': xsrf,
    };
    const answers: string[] = [];
    for (const over of [1, 100, 16_384, 65_537, 1_000_001])
      for (const chunk of [1_000, 16_384, 65_536]) {
        const csv = Buffer.alloc(IMPORT_MAX_BYTES + over, 'Dana,Levi\n');
        csv.write('First name,Last name\n', 0);
        const m = multipart(csv, 'clients.csv');
        const res = await post('/api/Client/ImportClients', m.body, { ...auth, ...m.headers }, chunk);
        answers.push(`${over}/${chunk}:${res.status}`);
        if (res.status === 413) expect(JSON.parse(res.body).code).toBe('FILE_TOO_LARGE');
      }
    // The file's bytes reach the limit exactly at the end of a read, and more follow.
    for (const chunk of [16_384, 65_536]) {
      const csv = Buffer.alloc(IMPORT_MAX_BYTES + 5_000, 'Dana,Levi\n');
      csv.write('First name,Last name\n', 0);
      const m = multipart(csv, 'clients.csv');
      const head = m.body.indexOf(csv.subarray(0, 40));
      const res = await post(
        '/api/Client/ImportClients',
        m.body,
        { ...auth, ...m.headers },
        chunk,
        head + IMPORT_MAX_BYTES,
      );
      answers.push(`exact/${chunk}:${res.status}`);
    }
    expect(answers.filter((a) => !a.endsWith(':413'))).toEqual([]);
    const r = (await ctx.database.db.execute(
      sql`select count(*)::int as n from clients where club_id = ${club.id}`,
    )) as unknown as { rows: { n: number }[] };
    expect(r.rows[0].n).toBe(0);
  }, 180_000);
});
