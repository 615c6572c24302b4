import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { REPORTS } from '@venue/domain';
import { cardLayout } from './CardList';
import { clientColumns } from '../features/clients/clientColumns';
import { reportColumns } from '../features/reports/ReportPage';

/**
 * Phone cards with what the front desk needs (issue 35 item 4;
 * docs/accessibility.md "Phone cards"): a client's card shows balance,
 * subscription end and status; a purchase's card in the purchases report
 * shows the total with VAT and how it was paid.
 */
const t = ((k: string) => k) as unknown as TFunction;

describe('phone cards', () => {
  it('a client card: number, name, phone, group, balance, subscription end, status', () => {
    const cols = clientColumns({
      t,
      fmt: { money: String, date: String, yesNo: String },
      canEdit: true,
      onDetails: () => undefined,
      onEdit: () => undefined,
      onChangeStatus: async () => undefined,
    });
    const { fields, actions } = cardLayout(cols);
    expect(fields.map((c) => c.key)).toEqual([
      'number',
      'name',
      'phone',
      'group',
      'balance',
      'subscriptionEnd',
      'status',
    ]);
    expect(actions.map((c) => c.key)).toEqual(['actions']);
  });

  it('a purchase card of the purchases report: when, invoice, client, total with VAT, paid by, status', () => {
    const meta = REPORTS.purchases.columns.filter((c) => !('field' in c && c.field));
    const { fields } = cardLayout(reportColumns(meta, () => '', t));
    expect(fields.map((c) => c.key)).toEqual(['at', 'invoiceNumber', 'clientName', 'total', 'paidBy', 'paymentStatus']);
  });
});
