import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The dashboard's counters must not wait for echarts (issue 35, bench/console-load.bench.mjs):
 * every chart is a lazy import, so no module the dashboard's screen reaches through static imports
 * of the console's own files may be the chart host or echarts itself. (The occupancy tile once
 * imported the chart statically: the dashboard's file grew from 15 KB to 544 KB.)
 */
const src = path.resolve(import.meta.dirname, '../..');
const STATIC_IMPORT = /^\s*import\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm;

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const ext of ['', '.ts', '.tsx', '/index.ts', '/index.tsx']) {
    if (existsSync(base + ext) && !(base + ext).endsWith('/')) {
      const f = base + ext;
      if (/\.(ts|tsx)$/.test(f)) return f;
    }
  }
  return null;
}

function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const m of readFileSync(f, 'utf8').matchAll(STATIC_IMPORT)) {
      const next = resolve(f, m[1]!);
      if (next) todo.push(next);
    }
  }
  return seen;
}

describe('the dashboard file', () => {
  it('reaches neither echarts nor the chart host through static imports', () => {
    const graph = [...staticGraph(path.join(src, 'features/dashboard/DashboardPage.tsx'))].map((f) =>
      path.relative(src, f),
    );
    expect(graph.length).toBeGreaterThan(5);
    expect(graph).toContain('features/occupancy/OccupancyTile.tsx');
    expect(graph.filter((f) => /features\/dashboard\/(echarts\.ts|EChart\.tsx|DashboardCharts\.tsx)$/.test(f))).toEqual(
      [],
    );
  });
});

/** Bare package names a file imports statically (`import … from 'antd'`, not `import type`). */
const PACKAGE_IMPORT = /^\s*import\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^.'"][^'"]*)['"]/gm;

describe('the dashboard first screen', () => {
  it('is drawn without antd, its icons or echarts: nothing it reaches statically imports them (issue 35)', () => {
    const graph = [...staticGraph(path.join(src, 'features/dashboard/DashboardFirstScreen.tsx'))];
    const names = graph.map((f) => path.relative(src, f));
    expect(names).toContain('features/dashboard/counters.ts');
    expect(names).toContain('features/dashboard/dashboardQueries.ts');
    const heavy = graph.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(PACKAGE_IMPORT)]
        .map((m) => m[1]!)
        .filter((p) => /^(antd|@ant-design\/|echarts)/.test(p))
        .map((p) => `${path.relative(src, f)} → ${p}`),
    );
    expect(heavy).toEqual([]);
  });
});
