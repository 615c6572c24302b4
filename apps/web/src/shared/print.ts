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
