import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Areas import one another one way (docs/ARCHITECTURE.md "Layers"). The lint
 * rule `import-x/no-cycle` sees files: groups.routes → schedules.service →
 * groups.service is no file cycle, yet groups and schedules would then lean
 * on each other. This test reads the production files of `modules/<area>/`
 * and fails on any loop between areas, naming the imports that close it.
 */
const modulesDir = import.meta.dirname;

/** Every import from a production file of one area to another: [from, to, "file → specifier"]. */
function areaImports(): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const e of readdirSync(modulesDir, { recursive: true, encoding: 'utf8' })) {
    if (!e.endsWith('.ts') || e.endsWith('.test.ts') || path.basename(e).startsWith('test-')) continue;
    const from = e.split(path.sep)[0];
    if (from === e) continue;
    const text = readFileSync(path.join(modulesDir, e), 'utf8');
    for (const m of text.matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/g)) {
      const target = path.relative(modulesDir, path.resolve(modulesDir, path.dirname(e), m[1] ?? m[2]));
      const to = target.split(path.sep)[0];
      if (to !== from && !to.startsWith('..') && to !== target) out.push([from, to, `${e} → ${m[1] ?? m[2]}`]);
    }
  }
  return out;
}

/** A loop of areas ([a, b, …, a]) in the graph, or undefined. */
function findLoop(edges: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (a: string): string[] | undefined => {
    state.set(a, 'open');
    stack.push(a);
    for (const b of edges.get(a) ?? []) {
      if (state.get(b) === 'open') return [...stack.slice(stack.indexOf(b)), b];
      if (!state.has(b)) {
        const loop = visit(b);
        if (loop) return loop;
      }
    }
    stack.pop();
    state.set(a, 'done');
    return undefined;
  };
  for (const a of edges.keys()) {
    if (state.has(a)) continue;
    const loop = visit(a);
    if (loop) return loop;
  }
  return undefined;
}

describe('areas of modules/', () => {
  it('import one another without a loop', () => {
    const imports = areaImports();
    expect(imports.length).toBeGreaterThan(20);
    const edges = new Map<string, Set<string>>();
    for (const [a, b] of imports) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    const loop = findLoop(edges);
    const closing = loop?.slice(1).map((b, i) => imports.find(([x, y]) => x === loop[i] && y === b)?.[2]);
    expect(loop && { loop: loop.join(' → '), imports: closing }).toBeUndefined();
  });

  it('finds a loop when there is one', () => {
    const edges = new Map([
      ['groups', new Set(['club'])],
      ['schedules', new Set(['groups'])],
      ['club', new Set(['schedules'])],
    ]);
    expect(findLoop(edges)).toEqual(['groups', 'club', 'schedules', 'groups']);
    expect(findLoop(new Map([['schedules', new Set(['groups'])]]))).toBeUndefined();
  });
});
