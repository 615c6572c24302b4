import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the simulator finds a terminal's secret when none is given: the demo
 * seeder writes `{serial: secret}` to `<DATA_DIR>/terminal-secrets.json`
 * (apps/server/src/demo/terminal-secrets.ts). DATA_DIR defaults to `./data`
 * of the directory the command was started from; `npm run terminal` starts
 * in apps/terminal, so relative paths resolve against INIT_CWD (the directory
 * npm was invoked in), and the repository's own data directories are tried
 * after it.
 */
export const SECRETS_FILE = 'terminal-secrets.json';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Candidate secrets files, most specific first. */
export function secretsFileCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const startDir = env.INIT_CWD ?? process.cwd();
  const dirs = env.DATA_DIR
    ? [path.resolve(startDir, env.DATA_DIR)]
    : [path.resolve(startDir, 'data'), path.join(repoRoot, 'data'), path.join(repoRoot, 'apps/server/data')];
  return [...new Set(dirs)].map((d) => path.join(d, SECRETS_FILE));
}

/** The secret of a serial from the first secrets file that has it, with that file; null when none has. */
export function secretFromFiles(
  serial: string,
  env: NodeJS.ProcessEnv = process.env,
): { secret: string; file: string } | null {
  for (const file of secretsFileCandidates(env)) {
    if (!existsSync(file)) continue;
    try {
      const map = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const secret = map[serial];
      if (typeof secret === 'string' && secret) return { secret, file };
    } catch {
      // An unreadable file is skipped; the next candidate may have it.
    }
  }
  return null;
}
