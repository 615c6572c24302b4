// Starts bench/lib/gate-server.mjs in its own process (so its memory and CPU are its own)
// with the node flags of the server's own `npm start` (apps/server/package.json), and talks to
// it over stdin/stdout: `next()` resolves with its next JSON line, `send(cmd)` writes a command.
// Used by bench/gate.bench.mjs and bench/gate-under-export.bench.mjs.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The node flags of the server's own `npm start`, e.g. its heap growth. */
export const SERVER_NODE_FLAGS = JSON.parse(readFileSync(path.join(root, 'apps/server/package.json'), 'utf8'))
  .scripts.start.split(' ')
  .filter((w) => /^--[\w-]+=/.test(w));

/**
 * The server's node flags as a results row names them: `npm start`'s, then a bench's own (a later
 * flag overrides an earlier one), without --expose-gc (the bench's, not the server's).
 * @param {string[]} [extra] the bench's extra flags
 */
export function serverFlagsLabel(extra = []) {
  return [...SERVER_NODE_FLAGS, ...extra].filter((f) => f && f !== '--expose-gc').join(' ') || 'no flags';
}

/**
 * @param {Record<string, string>} env added to this process's environment
 * @param {string[]} [nodeArgs] more node flags (a CPU profile, --trace-gc, ...)
 * @param {string[]} [prefix] a command the server runs under, e.g. `['taskset', '-c', '0']` (one core)
 */
export function startGateServer(env, nodeArgs = [], prefix = []) {
  const args = [...SERVER_NODE_FLAGS, ...nodeArgs, '--import', 'tsx', path.join(root, 'bench/lib/gate-server.mjs')];
  const child = spawn(
    prefix[0] ?? process.execPath,
    prefix.length ? [...prefix.slice(1), process.execPath, ...args] : args,
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = readline.createInterface({ input: child.stdout });
  const queue = [];
  const waiters = [];
  lines.on('line', (l) => {
    if (!l.startsWith('{')) {
      if (nodeArgs.length) process.stderr.write(`server: ${l}\n`); // what the extra flags print
      return;
    }
    const m = JSON.parse(l);
    const w = waiters.shift();
    if (w) w(m);
    else queue.push(m);
  });
  const next = () =>
    new Promise((resolve, reject) => {
      if (queue.length) return resolve(queue.shift());
      waiters.push(resolve);
      child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    });
  return { child, next, send: (cmd) => child.stdin.write(`${cmd}\n`) };
}
