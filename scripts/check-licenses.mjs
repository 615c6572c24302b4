// Checks that every production dependency has a GPL-3.0-compatible license
// (DESIGN §11, DOMAIN-FACTS "Licenses"). Exits 1 and lists offenders otherwise.
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ALLOWED =
  /^(MIT|ISC|BSD-2-Clause|BSD-3-Clause|0BSD|Apache-2\.0|LGPL-2\.1(-or-later)?|LGPL-3\.0(-or-later)?|GPL-2\.0-or-later|GPL-3\.0(-or-later)?|MPL-2\.0|CC0-1\.0|Unlicense|BlueOak-1\.0\.0|Python-2\.0|CC-BY-4\.0|Zlib|WTFPL|MIT-0|Bitstream-Vera)$/;

// Packages whose package.json says the deprecated "GPL-2.0" while every
// source file says "either version 2 of the License, or (at your option) any
// later version": GPL-2.0-or-later, compatible (checked in node_modules).
const VERIFIED = {
  '@hebcal/core': 'GPL-2.0-or-later',
  '@hebcal/hdate': 'GPL-2.0-or-later',
  '@hebcal/noaa': 'GPL-2.0-or-later',
  // exceljs' zip reader (unzipper 0.10 → binary → chainsaw → traverse, buffers): "MIT/X11" in
  // package.json or README, which is the MIT license (checked in node_modules).
  traverse: 'MIT',
  chainsaw: 'MIT',
  buffers: 'MIT',
  // The DejaVu fonts embedded in receipts' PDFs: "SEE LICENSE IN README.md AND LICENSE" — the
  // Bitstream Vera license (free to use, copy, modify and embed; modified fonts renamed) with the
  // Arev additions and public-domain changes. Fonts are embedded data, not linked code.
  'dejavu-fonts-ttf': 'Bitstream-Vera',
  // pdfkit's PNG decoder: no license field in package.json; its LICENSE file is the MIT License (checked in node_modules).
  'png-js': 'MIT',
};

const lines = execSync('npm ls --omit=dev --all --parseable', { encoding: 'utf8', maxBuffer: 64 << 20 })
  .split('\n')
  .filter(Boolean);
const bad = [];
const seen = new Set();
for (const dir of lines) {
  if (seen.has(dir)) continue;
  seen.add(dir);
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  } catch {
    continue;
  }
  if (pkg.private && !dir.includes('node_modules')) continue;
  const lic =
    VERIFIED[pkg.name] ??
    (typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? pkg.licenses?.[0]?.type ?? ''));
  const parts = lic.replace(/[()]/g, '').split(/\s+OR\s+/);
  if (!parts.some((p) => p.split(/\s+AND\s+/).every((q) => ALLOWED.test(q.trim()))))
    bad.push(`${pkg.name}@${pkg.version}: ${lic || 'none'}`);
}
if (bad.length) {
  console.error(`Dependencies without a GPL-3.0-compatible license:\n  ${bad.join('\n  ')}`);
  process.exit(1);
}
console.log(`licenses: ${seen.size} production packages, all GPL-3.0-compatible`);
