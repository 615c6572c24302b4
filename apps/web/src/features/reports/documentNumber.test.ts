import { describe, expect, it } from 'vitest';
import type { ReactElement } from 'react';
import { REPORTS, type ReportColumnMeta } from '@venue/domain';
import { purchasesCell } from './ReportPage';

/**
 * One format for document numbers (issue 35 item 6): the purchases report showed "1,596" where the
 * receipt said "1597"; an invoice number is an identifier, written with digits only, as on the receipt.
 */
describe('document numbers', () => {
  it('the purchases report writes an invoice number as the receipt does: 1596, not 1,596', () => {
    const col = REPORTS.purchases.columns.find((c) => c.key === 'invoiceNumber') as ReportColumnMeta;
    const cell = purchasesCell(() => undefined)(col, 1596, { id: 7 }) as ReactElement<{ children: unknown }>;
    const text = [cell.props.children].flat().filter((x) => typeof x === 'string' || typeof x === 'number');
    expect(text.join('')).toBe('1596');
  });
});
