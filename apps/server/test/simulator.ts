import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The terminal simulator's command line (apps/terminal/src/cli.ts) as the
 * API tests run it: the same source, bundled once per test process by
 * esbuild (the compiler tsx itself runs on, so no new dependency) and
 * started with this process's Node. A start then costs about 0.7 s of CPU
 * instead of tsx's 4.2 s (measured on this 2-core machine, docs/testing.md
 * "The simulator started through its bundle"): tsx's loader transpiles and
 * resolves each of the domain's modules on every start.
 *
 * The npm packages are bundled too (tree-shaken), except `ws`, whose
 * optional native helpers are looked up at run time and so load from
 * node_modules as under tsx. The bundle is written
 * three folders below the repository root, where apps/terminal/src/cli.ts
 * lives, so that the simulator's own `import.meta.url` paths
 * (apps/terminal/src/secrets.ts: the repository's data folders) resolve to
 * the same folders. It is removed when the process ends.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const EXTERNAL = ['ws'];

let bundle: string | undefined;

/** Path of this process's bundle of the simulator CLI, built on first use (about 0.3 s). */
export function simulatorBundle(): string {
  if (bundle) return bundle;
  const dir = path.join(repoRoot, 'node_modules/.cache/venue-simulator');
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `cli-${process.pid}.mjs`);
  execFileSync(
    path.join(repoRoot, 'node_modules/.bin/esbuild'),
    [
      path.join(repoRoot, 'apps/terminal/src/cli.ts'),
      '--bundle',
      '--platform=node',
      '--format=esm',
      `--outfile=${out}`,
      '--log-level=warning',
      ...EXTERNAL.map((p) => `--external:${p}`),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  process.once('exit', () => rmSync(out, { force: true }));
  bundle = out;
  return out;
}

const execFileAsync = promisify(execFile);

/**
 * Runs the simulator CLI with `args` (as `npm run terminal -- <args>` would)
 * and answers its stdout and stderr; rejects like `execFile` on a non-zero
 * exit (`code` is the exit code).
 */
export function runSimulator(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeout?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(process.execPath, [simulatorBundle(), ...args], options);
}
