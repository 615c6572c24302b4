/**
 * Printing a list on A4 (issue 19 "Exports and print"; docs/console-management.md
 * "Print"): a list of more than {@link PORTRAIT_MAX_COLUMNS} columns prints on a
 * landscape page, a narrower one on a portrait page; the page's CSS
 * (shared/grid.css `@media print`) lets the table shrink to the page's width, so
 * no column (the amount at the end of the entrance report) and no totals are cut off.
 */
export const PORTRAIT_MAX_COLUMNS = 6;

/** The `@page` rule of a list with `columns` visible columns. */
export function pageRule(columns: number): string {
  const orientation = columns > PORTRAIT_MAX_COLUMNS ? 'landscape' : 'portrait';
  return `@page { size: A4 ${orientation}; margin: 10mm; }`;
}

/**
 * Opens the browser's print dialog with the page rule of a list of `columns`
 * columns; the rule is removed again after printing.
 */
export function printList(columns: number): void {
  const style = document.createElement('style');
  style.dataset.printPage = 'true';
  style.textContent = pageRule(columns);
  document.head.appendChild(style);
  window.addEventListener('afterprint', () => style.remove(), { once: true });
  window.print();
}

/**
 * A receipt's paper (issue 35; docs/front-desk.md "Receipt"): an 80 mm thermal roll (72 mm
 * printable) or an A4 page.
 */
export type ReceiptFormat = 'thermal80' | 'a4';

/** CSS pixels per millimetre (96 px per inch). */
const PX_PER_MM = 96 / 25.4;

/**
 * The `@page` rule of a receipt: A4 portrait with 15 mm margins, or one 80 mm wide page as long as
 * the receipt (`heightPx`, its laid-out height at the roll's width, plus 4 mm above and below) so a
 * thermal printer cuts once, after the last line.
 */
export function receiptPageRule(format: ReceiptFormat, heightPx = 0): string {
  if (format === 'a4') return '@page { size: A4 portrait; margin: 15mm; }';
  const mm = Math.max(40, Math.ceil(heightPx / PX_PER_MM) + 8);
  return `@page { size: 80mm ${mm}mm; margin: 4mm 0; }`;
}

/**
 * Prints the receipt `sheet` alone (a child of `body`, hidden on screen): marks the body with
 * `data-print-receipt` (the print CSS then shows the sheet and nothing else, features/client-money
 * receipt.css), sets the page rule, opens the browser's print dialog and undoes both afterwards.
 */
export function printReceipt(format: ReceiptFormat, sheet: HTMLElement): void {
  sheet.dataset.format = format;
  const style = document.createElement('style');
  style.dataset.printPage = 'receipt';
  style.textContent = receiptPageRule(format, sheet.getBoundingClientRect().height);
  document.head.appendChild(style);
  document.body.dataset.printReceipt = format;
  window.addEventListener(
    'afterprint',
    () => {
      style.remove();
      delete document.body.dataset.printReceipt;
    },
    { once: true },
  );
  window.print();
}
