import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDatabaseDefinition } from '../db/data-map-doc.js';

/** Writes docs/database-definition.md from db/data-map.ts (issue 39; data-map.test.ts checks it is current). */
const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/database-definition.md');
writeFileSync(file, renderDatabaseDefinition());
console.log(`wrote ${file}`);
