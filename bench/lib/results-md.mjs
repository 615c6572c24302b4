// Adds a row to a table section of bench/RESULTS.md: the section (a `## ` heading
// followed by a table) is created at the end of the file when missing; the row
// goes after the section's last table row, so each benchmark keeps one table.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * @param {string} file path of RESULTS.md
 * @param {string} heading section title without the `## `
 * @param {string[]} columns column names
 * @param {(string|number|null|undefined)[]} row cell values
 */
export function addResultRow(file, heading, columns, row) {
  let text = existsSync(file)
    ? readFileSync(file, 'utf8')
    : '# Benchmark results\n\nOne row per run of `npm run bench` (newest last). Times in ms, sizes in bytes.\n';
  const line = `| ${row.map((c) => (c == null ? '—' : String(c))).join(' | ')} |`;
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (at < 0) {
    if (!text.endsWith('\n')) text += '\n';
    text += `\n## ${heading}\n\n| ${columns.join(' | ')} |\n|${columns.map(() => '---').join('|')}|\n${line}\n`;
    writeFileSync(file, text);
    return;
  }
  let i = at + 1;
  while (i < lines.length && !lines[i].startsWith('|')) i++;
  while (i < lines.length && lines[i].startsWith('|')) i++;
  lines.splice(i, 0, line);
  writeFileSync(file, lines.join('\n'));
}
