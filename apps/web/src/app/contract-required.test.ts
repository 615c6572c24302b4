import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { z } from 'zod';
import { contract, type ApiRoute } from '@venue/domain';
import { catalogues } from './catalogues';
import { validationText } from '../shared/errors';

/**
 * Issue 34 item 13: a required field left out of any request body gets the
 * translated "required" — in Hebrew and in English — and never the
 * validation library's English. Over every contract entry with a body (the
 * schemas the server validates with, the console's forms check and OpenAPI
 * documents: docs/ARCHITECTURE.md "packages/domain contract/"), one field
 * removed at a time. Also: no issue of such a body is English text at all.
 */

/** Object shapes a body accepts: the object itself, each member of a union, the input side of a pipe. */
function objectsOf(schema: z.ZodType): z.ZodObject[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (schema instanceof z.ZodObject) return [schema];
  if (def.type === 'pipe') return objectsOf(def.in as z.ZodType);
  if (def.type === 'union') return (def.options as z.ZodType[]).flatMap(objectsOf);
  if (def.type === 'intersection') return [...objectsOf(def.left as z.ZodType), ...objectsOf(def.right as z.ZodType)];
  if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch'].includes(def.type as string))
    return objectsOf(def.innerType as z.ZodType);
  return [];
}

/** A discriminated member keeps its discriminator so the union picks it; every other field is dropped. */
function discriminatorOf(obj: z.ZodObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj.shape)) {
    const d = (v as unknown as { _zod: { def: { type: string; values?: unknown[] } } })._zod.def;
    if (d.type === 'literal' && d.values?.length === 1) out[k] = d.values[0];
  }
  return out;
}

/** Required: the field's own schema refuses `undefined` (no default, not optional). */
const isRequired = (v: z.ZodType) => !v.safeParse(undefined).success;

const entries = Object.entries(contract).flatMap(([area, routes]) =>
  Object.entries(routes as Record<string, ApiRoute>)
    .filter(([, r]) => r.body)
    .map(([name, r]) => ({ id: `${area}.${name}`, route: r })),
);

async function translator(lang: 'he' | 'en') {
  const i = i18next.createInstance();
  await i.init({ lng: lang, resources: { [lang]: { translation: catalogues[lang] } } });
  return i.t.bind(i);
}

describe('every contract body: a missing required field is "required" in Hebrew and English (issue 34 item 13)', () => {
  it('finds the bodies', () => {
    expect(entries.length).toBeGreaterThan(70);
  });

  it('answers `required` for each required field removed, translated in both languages', async () => {
    const he = await translator('he');
    const en = await translator('en');
    const wrong: string[] = [];
    let checked = 0;
    for (const { id, route } of entries) {
      for (const obj of objectsOf(route.body!)) {
        const base = discriminatorOf(obj);
        for (const [key, field] of Object.entries(obj.shape)) {
          if (!isRequired(field as z.ZodType) || key in base) continue;
          const r = route.body!.safeParse(base);
          const issue = r.success ? undefined : r.error.issues.find((i) => i.path[0] === key && i.path.length === 1);
          checked++;
          if (!issue) {
            wrong.push(`${id}.${key}: no issue on the missing field`);
            continue;
          }
          const shown = [validationText(he, issue.message), validationText(en, issue.message)];
          if (
            issue.message !== 'required' ||
            shown[0] !== he('validation.required') ||
            shown[1] !== en('validation.required')
          )
            wrong.push(`${id}.${key}: "${issue.message}" → ${shown.join(' / ')}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(80);
  });

  it('never answers the validation library’s English for any body (empty, wrong types, unknown keys)', async () => {
    const he = await translator('he');
    const en = await translator('en');
    const known = (key: string) =>
      he(`validation.${key}`) !== `validation.${key}` && en(`validation.${key}`) !== `validation.${key}`;
    const english: string[] = [];
    for (const { id, route } of entries) {
      for (const input of [{}, { zzUnknown: 1 }, null, [], 'text']) {
        const r = route.body!.safeParse(input);
        if (r.success) continue;
        for (const i of r.error.issues) {
          if (!/^[a-z][A-Za-z0-9]*$/.test(i.message) || !known(i.message))
            english.push(`${id} ${JSON.stringify(input)}: "${i.message}"`);
        }
      }
      for (const obj of objectsOf(route.body!)) {
        const wrongTypes = Object.fromEntries(Object.keys(obj.shape).map((k) => [k, { nested: [true] }]));
        const r = route.body!.safeParse({ ...discriminatorOf(obj), ...wrongTypes });
        if (r.success) continue;
        for (const i of r.error.issues) {
          if (!/^[a-z][A-Za-z0-9]*$/.test(i.message) || !known(i.message))
            english.push(`${id} wrong types: "${i.message}"`);
        }
      }
    }
    expect(english).toEqual([]);
  });
});
