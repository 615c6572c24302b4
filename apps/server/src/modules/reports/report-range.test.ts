import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addDays, isoDate, parseIsoDate } from '@venue/domain';
import { createTestApp, type TestContext } from '../../../test/harness.js';
import { toInstants } from './report-range.js';

/**
 * The period bounds are computed with Intl (no database round trip); they must
 * be the instants PostgreSQL gives for `date::timestamp AT TIME ZONE tz`, also
 * on the days of a DST change, in zones whose change is at midnight, and in
 * zones with a half-hour offset.
 */
describe('toInstants: local midnights as PostgreSQL computes them', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  const cases: [string, string][] = [
    ['Asia/Jerusalem', '2026-03-24'], // DST starts Friday 27 March 2026 at 02:00
    ['Asia/Jerusalem', '2026-10-21'], // DST ends Sunday 25 October 2026
    ['America/Sao_Paulo', '2018-11-01'], // DST started at midnight, 4 November 2018 (00:00 does not exist)
    ['America/Sao_Paulo', '2018-02-14'], // DST ended at midnight, 18 February 2018
    ['America/Havana', '2026-03-05'], // DST starts at midnight, 8 March 2026
    ['Asia/Kolkata', '2026-06-01'], // +05:30
    ['Australia/Lord_Howe', '2026-04-01'], // half-hour DST, 5 April 2026
    ['UTC', '2026-01-01'],
  ];

  it.each(cases)('%s, ten days from %s', async (tz, first) => {
    for (let i = 0; i < 10; i++) {
      const day = isoDate(addDays(parseIsoDate(first), i));
      const r = toInstants({ from: day, to: day }, tz);
      const next = isoDate(addDays(parseIsoDate(day), 1));
      const res = await ctx.database.db.execute(sql`select
          (extract(epoch from (${day}::date::timestamp at time zone ${tz})) * 1000)::float8 as s,
          (extract(epoch from (${next}::date::timestamp at time zone ${tz})) * 1000)::float8 as e`);
      const row = (res as unknown as { rows: { s: number | string; e: number | string }[] }).rows[0];
      expect({ day, start: r.start.toISOString(), end: r.end.toISOString() }).toEqual({
        day,
        start: new Date(Number(row.s)).toISOString(),
        end: new Date(Number(row.e)).toISOString(),
      });
    }
  });
});
