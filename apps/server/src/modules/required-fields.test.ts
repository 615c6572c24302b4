import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { contract, type ApiRoute } from '@venue/domain';
import { Api, createTestApp, signedInAdmin, signedInOperator, type TestContext } from '../../test/harness.js';
import * as factory from '../../test/factories.js';
import { startMemberSession } from '../lib/member-sessions.js';

/**
 * Issue 34 item 13 over HTTP: every contract entry with a JSON body, sent
 * `{}`, answers 400 VALIDATION_ERROR whose details give each required field
 * the key `required`, and whose every message is a key the console
 * translates in Hebrew and in English (`validation.<key>`), never the
 * validation library's English. The same schemas, field by field, are
 * checked without HTTP in apps/web/src/app/contract-required.test.ts.
 */

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/src');
/** `validation.*` keys of the console's catalogues (the shared file and every feature's) in one language. */
function validationKeys(lang: 'he' | 'en'): Set<string> {
  const files = [
    path.join(web, `platform/i18n/${lang}.json`),
    ...readdirSync(path.join(web, 'features')).map((f) => path.join(web, 'features', f, `i18n.${lang}.json`)),
  ];
  const keys = new Set<string>();
  for (const f of files) {
    let json: { validation?: Record<string, string> };
    try {
      json = JSON.parse(readFileSync(f, 'utf8'));
    } catch {
      continue;
    }
    for (const k of Object.keys(json.validation ?? {})) keys.add(k);
  }
  return keys;
}

/** The top-level keys `{}` leaves missing: an object body's fields whose own schema refuses `undefined`. */
function requiredKeys(body: z.ZodType): string[] {
  const def = (body as unknown as { _zod: { def: { type: string; in?: z.ZodType } } })._zod.def;
  const obj = body instanceof z.ZodObject ? body : def.type === 'pipe' && def.in instanceof z.ZodObject ? def.in : null;
  if (!obj) return [];
  return Object.entries(obj.shape)
    .filter(([, v]) => !(v as z.ZodType).safeParse(undefined).success)
    .map(([k]) => k);
}

const entries = Object.entries(contract).flatMap(([area, routes]) =>
  Object.entries(routes as Record<string, ApiRoute>)
    .filter(([, r]) => r.body && !r.consumes && !r.access.public)
    .map(([name, r]) => ({ id: `${area}.${name}`, route: r })),
);

describe('a missing required field over HTTP: `required`, translated, on every body (issue 34 item 13)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('answers each entry’s `{}` with `required` on its required fields and only translated keys', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const { api: operator } = await signedInOperator(ctx);
    // The member app's routes (docs/members.md) take a member token.
    const client = await factory.makeClient(ctx, club.id, { phone: '+972501234568' });
    const member = new Api(ctx.app);
    const ms = await startMemberSession(ctx.database.db, {
      contact: client.phone,
      clubId: club.id,
      clientId: client.id,
      ip: '',
      ttlSeconds: 600,
    });
    member.token = await ctx.app.jwt.sign({ sub: 0, tv: 0, ms });
    // The areas behind a club setting (attendance, positions, incidents and feedback) open for the admin.
    await api.patch(`/api/Club/${club.id}`, { isEmployeeAttendanceEnabled: true, isIncidentReportEnabled: true });
    const he = validationKeys('he');
    const en = validationKeys('en');
    const wrong: string[] = [];
    let withRequired = 0;
    for (const { id, route } of entries) {
      const url = route.path.replace(/:\w+/g, '1');
      const res = route.access.operator
        ? await operator.request(route.method, url, {}, { clubexternalid: String(club.externalClubId) })
        : route.access.member
          ? await member.request(route.method, url, {})
          : await api.request(route.method, url, {});
      const required = requiredKeys(route.body!);
      if (required.length > 0) withRequired++;
      if (res.statusCode !== 400) {
        if (required.length > 0) wrong.push(`${id}: ${res.statusCode} without its required fields`);
        continue;
      }
      const details = (res.json().details ?? []) as { path: string; message: string }[];
      for (const key of required) {
        if (!details.some((d) => d.path === key && d.message === 'required')) {
          wrong.push(`${id}.${key}: ${JSON.stringify(details.filter((d) => d.path === key))}`);
        }
      }
      for (const d of details) {
        if (!he.has(d.message) || !en.has(d.message)) wrong.push(`${id} ${d.path}: "${d.message}" not translated`);
      }
    }
    expect(wrong).toEqual([]);
    expect(withRequired).toBeGreaterThan(35);
  });
});
