import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parser as promql } from '@prometheus-io/lezer-promql';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { EventBus } from '../lib/event-bus.js';
import { openTestDatabase, type TestContext } from '../../test/harness.js';
import { parseScrape } from '../../test/prometheus.js';

/**
 * The operator's alert rules and dashboard (docs/monitoring/, docs/operations.md "Metrics") are
 * checked as Prometheus and Grafana would read them: the rule file has promtool's shape (groups of
 * rules, each an alert with an expression, a duration, labels and annotations), every expression
 * parses with Prometheus's own PromQL grammar (@prometheus-io/lezer-promql), and every series they
 * name is one a running server exports (a real scrape of /metrics).
 */
const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/monitoring');
const TOKEN = 'monitoring-files-test-token-0123456789abcdef';

/** PromQL syntax errors of `expr` (the grammar's error nodes), with their position. */
function promqlErrors(expr: string): string[] {
  const errors: string[] = [];
  promql.parse(expr).iterate({
    enter: (n) => {
      if (n.type.isError) errors.push(`at ${n.from}: "${expr.slice(Math.max(0, n.from - 10), n.to + 10)}"`);
    },
  });
  return errors;
}

/** The venue series an expression names, without a histogram's _bucket/_sum/_count. */
const seriesOf = (expr: string) =>
  [...expr.matchAll(/\bvenue_[a-z_]+\b/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, ''));

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

describe('docs/monitoring: alert rules and dashboard', () => {
  let ctx: TestContext;
  let exported: Set<string>;
  beforeAll(async () => {
    const database = await openTestDatabase();
    const config = { ...loadConfig({}), logLevel: 'silent', metricsToken: TOKEN };
    const app = await buildApp({ config, database, bus: new EventBus() });
    await app.ready();
    ctx = { app, database, bus: new EventBus(), close: async () => (await app.close(), await database.dropAll()) };
    const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    exported = new Set(parseScrape(res.body).types.keys());
  });
  afterAll(async () => ctx?.close());

  it('the grammar refuses a broken expression (the check can fail)', () => {
    expect(promqlErrors('sum(rate(venue_gate_decisions_total[5m])')).not.toEqual([]);
    expect(promqlErrors('rate(venue_gate_decisions_total[5m])')).toEqual([]);
  });

  it('alerts.yml: promtool’s shape, PromQL that parses, series the server exports', () => {
    const file = parseYaml(readFileSync(path.join(DIR, 'alerts.yml'), 'utf8')) as {
      groups: { name: string; rules: Rule[] }[];
    };
    expect(Object.keys(file)).toEqual(['groups']);
    const groupNames = file.groups.map((g) => g.name);
    expect(new Set(groupNames).size).toBe(groupNames.length);
    const problems: string[] = [];
    const alerts: string[] = [];
    for (const g of file.groups) {
      expect(g.rules.length, g.name).toBeGreaterThan(0);
      for (const r of g.rules) {
        const name = r.alert ?? r.record ?? '?';
        alerts.push(name);
        if (!r.alert || !/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(r.alert)) problems.push(`${name}: alert name`);
        if (typeof r.expr !== 'string') problems.push(`${name}: expr`);
        if (r.for != null && !/^\d+(ms|s|m|h|d|w|y)$/.test(r.for)) problems.push(`${name}: for ${r.for}`);
        for (const [k, v] of Object.entries({ ...r.labels, ...r.annotations }))
          if (typeof v !== 'string') problems.push(`${name}: ${k} is not a string`);
        if (!['warning', 'critical'].includes(r.labels?.severity ?? '')) problems.push(`${name}: severity`);
        if (!r.annotations?.summary || !r.annotations.description) problems.push(`${name}: annotations`);
        problems.push(...promqlErrors(r.expr).map((e) => `${name}: PromQL ${e}`));
        for (const s of seriesOf(r.expr)) if (!exported.has(s)) problems.push(`${name}: no series ${s}`);
      }
    }
    expect(problems).toEqual([]);
    // What the issue asks an operator to be woken for: the gate's p99, the offline backlog, the database, the jobs.
    for (const a of ['VenueGateSlow', 'VenueOfflineBacklog', 'VenueDatabaseUnavailable', 'VenueJobFailing'])
      expect(alerts).toContain(a);
  });

  it('grafana-dashboard.json: every panel’s query parses and names series the server exports', () => {
    const dash = JSON.parse(readFileSync(path.join(DIR, 'grafana-dashboard.json'), 'utf8')) as {
      uid: string;
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dash.uid).toBe('venue-server');
    const problems: string[] = [];
    const named = new Set<string>();
    for (const p of dash.panels) {
      expect(p.targets.length, p.title).toBeGreaterThan(0);
      for (const t of p.targets) {
        problems.push(...promqlErrors(t.expr).map((e) => `${p.title}: PromQL ${e}`));
        for (const s of seriesOf(t.expr)) {
          named.add(s);
          if (!exported.has(s)) problems.push(`${p.title}: no series ${s}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Every series the server exports is on the dashboard.
    expect([...exported].filter((s) => s.startsWith('venue_') && !named.has(s))).toEqual([]);
  });
});
