import { codeLabelEntries, entityTextEntries, reportTextEntries } from '@venue/domain';
import he from '../platform/i18n/he.json';
import en from '../platform/i18n/en.json';

/** A message catalogue: nested keys to strings. */
export type Catalogue = { [key: string]: string | Catalogue };

/**
 * The he and en catalogues: the shared `he.json` / `en.json` merged with each
 * feature's own `features/<area>/i18n.he.json` / `i18n.en.json`, so that a
 * feature's strings live beside its screens. A key defined twice is an error.
 */
const featureHe = import.meta.glob<Catalogue>('../features/*/i18n.he.json', { eager: true, import: 'default' });
const featureEn = import.meta.glob<Catalogue>('../features/*/i18n.en.json', { eager: true, import: 'default' });

function merge(into: Catalogue, from: Catalogue, path: string): Catalogue {
  for (const [k, v] of Object.entries(from)) {
    const cur = into[k];
    if (cur === undefined) into[k] = typeof v === 'string' ? v : merge({}, v, `${path}${k}.`);
    else if (typeof cur !== 'string' && typeof v !== 'string') merge(cur, v, `${path}${k}.`);
    else throw new Error(`i18n key defined twice: ${path}${k}`);
  }
  return into;
}

/** Flat dotted keys (`status.4`) as a nested catalogue. */
function nest(flat: Record<string, string>): Catalogue {
  const out: Catalogue = {};
  for (const [key, text] of Object.entries(flat)) {
    const parts = key.split('.');
    let node = out;
    for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Catalogue;
    node[parts[parts.length - 1]] = text;
  }
  return out;
}

/**
 * The base catalogue, the features' catalogues, the labels of every code
 * (statuses, reasons, methods, outcomes, audit actions…) and the reports'
 * column, total and breakdown words from packages/domain (labels.ts,
 * report-text.ts), which the server's spreadsheet exports read too.
 */
function build(base: Catalogue, features: Record<string, Catalogue>, codes: Record<string, string>): Catalogue {
  const out = merge({}, base, '');
  for (const file of Object.keys(features).sort()) merge(out, features[file], '');
  merge(out, nest(codes), '');
  return out;
}

export const catalogues: { he: Catalogue; en: Catalogue } = {
  he: build(he as Catalogue, featureHe, {
    ...codeLabelEntries('he'),
    ...reportTextEntries('he'),
    ...entityTextEntries('he'),
  }),
  en: build(en as Catalogue, featureEn, {
    ...codeLabelEntries('en'),
    ...reportTextEntries('en'),
    ...entityTextEntries('en'),
  }),
};
