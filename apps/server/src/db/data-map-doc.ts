import { DATA_MAP, PROCESSORS, type ClientRule, type TableAnnotation } from './data-map.js';

/** A table cell: pipes escaped, one line. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function clientText(r: ClientRule | undefined): string {
  if (!r) return '—';
  if ('excluded' in r) return `not in the copy: ${r.excluded}`;
  const rows =
    'columns' in r.rows
      ? `rows with her id in ${r.rows.columns.join(', ')}`
      : 'viaPurchase' in r.rows
        ? 'rows of her purchases'
        : 'audit rows about her';
  return `copy: ${rows}; erasure: ${r.erase} — ${r.why}`;
}

/**
 * The database definition document (docs/database-definition.md) generated from db/data-map.ts:
 * the processors, then one section per table (purpose, data, whose, who may access, retention,
 * processors, a client's copy and erasure). `npm run -w apps/server db:definition` writes it;
 * data-map.test.ts fails when the committed file differs.
 */
export function renderDatabaseDefinition(): string {
  const out: string[] = [
    '# Database definition',
    '',
    '<!-- Generated from apps/server/src/db/data-map.ts by `npm run -w apps/server db:definition`; do not edit. -->',
    '',
    'The database definition of the Privacy Protection Law (Amendment 13) and the Privacy Protection',
    '(Data Security) Regulations 2017, reg. 2: for each table, its purpose, the kinds of data, whose',
    'they are, who may access them, how long they are kept, and the outside processors that receive',
    "them; and how a client's copy and erasure treat it (docs/privacy.md). Every table is stored in",
    "the one PostgreSQL database of the service (PGlite in development), in the operator's hosting;",
    'backups are encrypted (docs/privacy.md "Backups").',
    '',
    '## Processors',
    '',
    '| Processor | What it receives |',
    '| --- | --- |',
    ...Object.entries(PROCESSORS).map(([k, v]) => `| ${k} | ${cell(v)} |`),
    '',
    `## Tables (${Object.keys(DATA_MAP).length})`,
    '',
  ];
  for (const [name, a] of Object.entries(DATA_MAP).sort(([x], [y]) => x.localeCompare(y)) as [
    string,
    TableAnnotation,
  ][]) {
    out.push(
      `### ${name}`,
      '',
      `- Purpose: ${a.purpose}`,
      `- Data: ${a.data}`,
      `- Whose: ${a.personal}`,
      `- Access: ${a.access}`,
      `- Retention: ${a.retention}`,
      `- Processors: ${a.processors?.join(', ') ?? 'none'}`,
      `- A client's copy and erasure: ${clientText(a.client)}`,
      '',
    );
  }
  return out.join('\n');
}
