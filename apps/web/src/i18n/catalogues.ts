import he from './he.json';
import en from './en.json';

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

function build(base: Catalogue, features: Record<string, Catalogue>): Catalogue {
  const out = merge({}, base, '');
  for (const file of Object.keys(features).sort()) merge(out, features[file], '');
  return out;
}

export const catalogues: { he: Catalogue; en: Catalogue } = {
  he: build(he as Catalogue, featureHe),
  en: build(en as Catalogue, featureEn),
};
