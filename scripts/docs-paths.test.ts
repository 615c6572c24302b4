import { existsSync, globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The newcomer's map stays true: every file or folder that
 * `docs/ARCHITECTURE.md` names exists (issue "A ten-minute CI and a server
 * in area order", "Docs kept true by a test").
 *
 * What counts as a named path:
 * - each entry of the tree in the first code block, joined with the folders
 *   above it by indentation (`packages/domain/` › `schemas/<area>.ts`);
 * - each `inline code` span that looks like a path (a `/` or a file
 *   extension, no spaces): tried from the repository root, then from the
 *   roots the text uses for short paths (`apps/server/src`, `apps/web/src`,
 *   `packages/domain/src`, `apps/server`, `docs`).
 * `<area>`-style placeholders match any name, `{he,en}` either; a path must
 * match at least one file or folder.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const DOC = 'docs/ARCHITECTURE.md';
const SHORT_ROOTS = ['', 'apps/server/src', 'apps/web/src', 'packages/domain/src', 'apps/server', 'docs'];
const FILE_EXT = /\.(ts|tsx|json|md|sql|css|mjs|js|sh|html)$/;

/** Does a documented path (with placeholders) match something in the repository? */
function exists(named: string): boolean {
  const clean = named.replace(/[.,;:]+$/, '').replace(/\/$/, '');
  const pattern = clean.replace(/<[^>]+>/g, '*').replace(/NNNN/g, '*');
  // A bare file name ("clientColumns.tsx") is looked for anywhere in the repository.
  const roots = pattern.includes('/') ? SHORT_ROOTS : ['**'];
  return roots.some((root) => {
    const full = path.join(root, pattern);
    if (!/[*{]/.test(full)) return existsSync(path.join(ROOT, full));
    return globSync(full, { cwd: ROOT, exclude: (p) => /node_modules|\.git$/.test(p) }).length > 0;
  });
}

/** The tree of the first code block: each entry joined with its parents by indentation. */
export function treePaths(markdown: string): string[] {
  const block = /```\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
  const out: string[] = [];
  const stack: { indent: number; dir: string }[] = [];
  for (const line of block.split('\n')) {
    // An entry is a name followed by two spaces (its description) or by nothing; a description's
    // own line may start with a path followed by one space ("apps/web/tsconfig.json apps/web/src").
    const m = /^( *)(\S+)(?: {2,}|$)/.exec(line);
    if (!m) continue;
    const indent = m[1].length;
    const name = m[2].replace(/,$/, '');
    // Description lines (prose, "(docs/…)", "@hebcal/…:") are not entries: an entry is a path.
    if (!/^[\w<>{}.-]+(\/[\w<>{}.*-]*)*$/.test(name) || !/[/.]/.test(name)) continue;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack.length ? stack[stack.length - 1].dir : '';
    out.push(parent ? `${parent}|${name}` : name);
    if (name.endsWith('/')) stack.push({ indent, dir: parent ? `${parent}|${name}` : name });
  }
  return out;
}

/** Inline code spans that look like paths. */
export function inlinePaths(markdown: string): string[] {
  const spans = [...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\s]+)`/g)].map((m) => m[1]);
  return spans.filter(
    (s) =>
      (s.includes('/') || FILE_EXT.test(s)) &&
      !s.startsWith('/') && // a URL path of the API
      !/^(https?:|npm|npx)/.test(s) &&
      !s.includes('(') &&
      !s.includes('=') &&
      !s.startsWith('@') && // a package name
      !s.startsWith('shared/') && // the workplace's design documents, beside the repository, not in it
      !/^(import-x|react-hooks)\//.test(s) && // a lint rule
      /^[\w<>{}.,/*-]+$/.test(s),
  );
}

function expandBraces(p: string): string[] {
  const m = /\{([^}]+)\}/.exec(p);
  if (!m) return [p];
  return m[1].split(',').flatMap((alt) => expandBraces(p.replace(m[0], alt)));
}

describe(`${DOC} names files that exist`, () => {
  const text = readFileSync(path.join(ROOT, DOC), 'utf8');

  it('reads a tree and inline paths out of the page (so the check below is not vacuous)', () => {
    expect(treePaths(text).length).toBeGreaterThan(20);
    expect(inlinePaths(text).length).toBeGreaterThan(20);
    expect(exists('apps/no-such-folder/nothing.ts')).toBe(false);
  });

  it('every path in the tree exists', () => {
    // An entry is named under the folder above it, or under that folder's src/.
    const found = (entry: string) => {
      const parts = entry.split('|');
      const name = parts.pop() ?? '';
      const parent = parts.join('');
      return [parent, parent && `${parent}src/`].some((dir) => exists(dir + name));
    };
    const missing = treePaths(text)
      .flatMap(expandBraces)
      .filter((p) => !found(p));
    expect(missing).toEqual([]);
  });

  it('every path in inline code exists', () => {
    const missing = inlinePaths(text)
      .flatMap(expandBraces)
      .filter((p) => !exists(p));
    expect(missing).toEqual([]);
  });
});

describe(`${DOC} "A new client field" stays within six files`, () => {
  const text = readFileSync(path.join(ROOT, DOC), 'utf8');
  const start = text.indexOf('**A new client field**');
  const section = text.slice(start, text.indexOf('**A new terminal action**', start));

  it('names at most six files to change, each of which exists (issue "A ten-minute CI…", Done when)', () => {
    // The numbered steps are the files to change; the generated migration (drizzle/NNNN_*.sql) is not counted.
    const steps = [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]);
    expect(start).toBeGreaterThan(-1);
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.length).toBeLessThanOrEqual(6);
    expect(steps.filter((p) => !exists(p))).toEqual([]);
  });

  it('the files it says derive the field from CLIENT_CONTACT_FIELDS do read it', () => {
    for (const file of [
      'apps/server/src/modules/clients/clients.service.ts',
      'apps/server/src/modules/clients/clients.import.ts',
      'apps/server/src/modules/clients/clients.export.ts',
      'apps/web/src/features/clients/clientColumns.tsx',
    ]) {
      expect(readFileSync(path.join(ROOT, file), 'utf8'), file).toContain('CLIENT_CONTACT_KEYS');
    }
  });
});
