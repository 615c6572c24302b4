import { describe, expect, it } from 'vitest';
import { pageRule, receiptPageRule } from './print';

describe('print pages (docs/console-management.md "Print", docs/front-desk.md "Receipt")', () => {
  it('prints a wide list on landscape A4 and a narrow one on portrait', () => {
    expect(pageRule(7)).toContain('A4 landscape');
    expect(pageRule(6)).toContain('A4 portrait');
  });

  it('prints a receipt on one 80 mm page as long as the slip (4 mm above and below), or on A4', () => {
    // 370 px is 97.9 mm at 96 px per inch: 98 + 8 mm.
    expect(receiptPageRule('thermal80', 370)).toBe('@page { size: 80mm 106mm; margin: 4mm 0; }');
    // Never shorter than 40 mm (a slip not laid out yet).
    expect(receiptPageRule('thermal80', 0)).toBe('@page { size: 80mm 40mm; margin: 4mm 0; }');
    expect(receiptPageRule('a4', 5000)).toBe('@page { size: A4 portrait; margin: 15mm; }');
  });
});
