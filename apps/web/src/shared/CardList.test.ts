import { describe, expect, it } from 'vitest';
import { cardLayout, DEFAULT_CARD_FIELDS, type CardColumn } from './CardList';

type Row = { id: number };
const col = (key: string, extra: Partial<CardColumn<Row>> = {}): CardColumn<Row> => ({ key, title: key, ...extra });

describe('cardLayout (a list on a phone, docs/accessibility.md "Phones")', () => {
  it('shows the declared key columns and the actions, in column order', () => {
    const { fields, actions } = cardLayout([
      col('a'),
      col('b', { card: 'key' }),
      col('c', { card: false }),
      col('d', { card: 'key' }),
      col('actions', { title: '' }),
    ]);
    expect(fields.map((c) => c.key)).toEqual(['b', 'd']);
    expect(actions.map((c) => c.key)).toEqual(['actions']);
  });

  it('without declared key columns shows the first titled ones, not hidden ones or false ones', () => {
    const cols = [col('x', { hidden: true }), col('y', { card: false }), ...'abcdefgh'.split('').map((k) => col(k))];
    const { fields, actions } = cardLayout(cols);
    expect(fields.map((c) => c.key)).toEqual('abcdefgh'.split('').slice(0, DEFAULT_CARD_FIELDS));
    expect(actions).toEqual([]);
  });

  it('an untitled column or one marked actions is an action, never a field', () => {
    const { fields, actions } = cardLayout([col('name'), col('ops', { title: '' }), col('more', { card: 'actions' })]);
    expect(fields.map((c) => c.key)).toEqual(['name']);
    expect(actions.map((c) => c.key)).toEqual(['ops', 'more']);
  });
});
