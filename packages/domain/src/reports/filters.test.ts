import { describe, expect, it } from 'vitest';
import { REPORTS, type ReportMeta } from '../reports.js';
import { reportBarFilters } from './filters.js';

describe('report filter options (the catalogue)', () => {
  const all: ReportMeta[] = Object.values(REPORTS);

  it('declares the status choices of every report with a status filter, and only there', () => {
    for (const meta of all) {
      expect(Boolean(meta.statusFilter), meta.id).toBe(meta.filters.includes('status'));
    }
  });

  it('gives the bar its filters in the bar order, without the ones set by a link', () => {
    expect(reportBarFilters(REPORTS.purchases).map((f) => f.key)).toEqual([
      'client',
      'terminalId',
      'status',
      'paymentMethod',
      'itemType',
      'productId',
      'userId',
    ]);
    expect(reportBarFilters(REPORTS.entrances).map((f) => f.key)).toEqual(['client', 'terminalId', 'status']);
    expect(reportBarFilters(REPORTS.autoRenewal).map((f) => f.options.kind)).toEqual(['yesNo']);
  });

  it('offers the client search on the entrance, payments, purchases and activities reports', () => {
    const withSearch = all.filter((m) => reportBarFilters(m).some((f) => f.key === 'client')).map((m) => m.id);
    expect(withSearch.sort()).toEqual(['activities', 'entrances', 'payments', 'purchases']);
    expect(reportBarFilters(REPORTS.payments)[0].options).toMatchObject({ kind: 'search' });
  });

  it('offers every choice once', () => {
    for (const meta of all) {
      for (const f of reportBarFilters(meta)) {
        if (f.options.kind === 'search') continue;
        const values = (f.options.choices ?? []).map((c) => c.value);
        expect(new Set(values).size, `${meta.id} ${f.key}`).toBe(values.length);
        expect(Boolean(f.options.list) !== Boolean(f.options.choices), `${meta.id} ${f.key}`).toBe(true);
      }
    }
  });
});
