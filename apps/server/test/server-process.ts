import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';

/**
 * The real server (`src/main.ts`) in a child process of its own, for tests
 * that kill it (SIGKILL) or stop it (SIGTERM) as a supervisor would, and a
 * minimal HTTP client for it (sign-in, anti-forgery pair, JSON calls).
 */

const SERVER_DIR = path.resolve(import.meta.dirname, '..');

/** A TCP port free at this moment on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** What the process printed (stdout and stderr). */
  output: string[];
  /** Sends `signal` and resolves when the process has exited. */
  stop(signal: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `src/main.ts` on the node of this process with `env` added (schedulers off unless the
 * env turns them on) and resolves once it prints that it is ready.
 * @throws when it exits first or is not ready within `readyMs`
 */
export async function startServerProcess(env: Record<string, string>, readyMs = 240_000): Promise<ServerProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      MONEY_JOBS: '0',
      ATTENDANCE_JOBS: '0',
      INCIDENT_WEBHOOK_TICK_MS: '0',
      ACTIVITY_DAILY_COMPACT_MS: '0',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server not ready in ${readyMs} ms:\n${output.join('\n')}`)),
      readyMs,
    );
    for (const stream of [child.stdout!, child.stderr!]) {
      readline.createInterface({ input: stream }).on('line', (l) => {
        output.push(l);
        if (l.includes('Venue console ready at')) {
          clearTimeout(timer);
          resolve();
        }
      });
    }
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before it was ready:\n${output.join('\n')}`));
    });
  });
  await ready;
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output,
    stop: async (signal) => {
      if (child.exitCode == null && child.signalCode == null) child.kill(signal);
      await exited;
    },
  };
}

/** A signed-in console user of a server process, over HTTP. */
export class HttpSession {
  private cookie = '';
  private xsrf = '';
  private token = '';
  constructor(readonly url: string) {}

  /** Signs in (the anti-forgery pair first). @throws when refused */
  async signIn(username: string, password: string, externalClubId: number): Promise<void> {
    const health = await fetch(`${this.url}/api/health`);
    const cookies = health.headers.getSetCookie().map((c) => c.split(';')[0]);
    this.cookie = cookies.join('; ');
    this.xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
    const res = await this.call('POST', '/api/Account', { username, password, externalClubId });
    if (res.status !== 200) throw new Error(`sign-in refused: ${res.status} ${JSON.stringify(res.body)}`);
    this.token = (res.body as { token: string }).token;
  }

  /** One JSON call: its status and parsed body (null when empty or not JSON). */
  async call(method: string, url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${this.url}${url}`, {
      method,
      headers: {
        cookie: this.cookie,
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(method !== 'GET' ? { 'x-xsrf-token': this.xsrf, 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed };
  }
}
