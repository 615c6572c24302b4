import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contract } from './index.js';
import { ReportQuery } from '../reports/query.js';

/**
 * Every list and record a request may carry has a bound (docs/security.md
 * "Input"): an unbounded array in a body is work for the database in
 * proportion to a caller's whim — a 10,000-element `itemType` filter answered
 * 503 "database unavailable" instead of a 400. Walks the request schemas of
 * every contract route and of the report query: each array needs a maximum
 * length, each record with free keys a check of its own (size or key count).
 */
type Schema = z.ZodType & { _zod: { def: Record<string, unknown> & { type: string; checks?: Check[] } } };
type Check = { _zod: { def: { check: string } } };

function unbounded(s: Schema, path: string, out: string[], seen = new Set<unknown>()): void {
  if (!s || seen.has(s)) return;
  seen.add(s);
  const d = s._zod.def;
  const checks = (d.checks ?? []).map((c) => c._zod.def.check);
  switch (d.type) {
    case 'object':
      for (const [k, v] of Object.entries(d.shape as Record<string, Schema>)) unbounded(v, `${path}.${k}`, out, seen);
      return;
    case 'array':
      if (!checks.includes('max_length')) out.push(path);
      return unbounded(d.element as Schema, `${path}[]`, out, seen);
    case 'record':
      if (!checks.length && (d.keyType as Schema)._zod.def.type !== 'enum') out.push(`${path}{}`);
      return unbounded(d.valueType as Schema, `${path}{}`, out, seen);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return unbounded(d.innerType as Schema, path, out, seen);
    case 'pipe':
      return unbounded(d.in as Schema, path, out, seen);
    case 'union':
      for (const o of d.options as Schema[]) unbounded(o, path, out, seen);
      return;
    case 'intersection':
      unbounded(d.left as Schema, path, out, seen);
      return unbounded(d.right as Schema, path, out, seen);
    case 'lazy':
      return unbounded((d.getter as () => Schema)(), path, out, seen);
  }
}

describe('request schemas bound every list', () => {
  it('no route takes an unbounded array or record', () => {
    const out: string[] = [];
    let walked = 0;
    for (const routes of Object.values(contract as unknown as Record<string, Record<string, Record<string, unknown>>>))
      for (const r of Object.values(routes))
        for (const k of ['body', 'query', 'params'] as const) {
          if (!r[k]) continue;
          walked++;
          unbounded(r[k] as Schema, `${String(r.method)} ${String(r.path)} ${k}`, out);
        }
    unbounded(ReportQuery as unknown as Schema, 'POST /api/Report/* body', out);
    expect(walked).toBeGreaterThan(100);
    expect(out).toEqual([]);
  });
});
