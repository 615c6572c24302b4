import type { Identification } from '@venue/domain';
import { TerminalClient } from './client.js';

/**
 * Scripted traffic: many terminals at once, each presenting
 * identifications at a steady rate over its own link, reconnecting and
 * deciding offline like a real gate when the server goes away. Used by
 * `npm run terminal -- traffic` and by bench/gate.bench.mjs.
 */

export interface TrafficOptions {
  /** The server, or several tried in order (docs/terminal-protocol.md "Several servers"). */
  url: string | string[];
  /** serial → secret of the terminals to run. */
  terminals: { serial: string; secret: string }[];
  /** Identifications to present, round robin. */
  identifications: Identification[];
  /** Entrances per second per terminal; 0 = as fast as each terminal's decisions come back (closed loop). */
  rate: number;
  /** Seconds to run. */
  durationSeconds: number;
  /** Decisions each terminal may have outstanding at once in closed-loop mode (default 1). */
  inFlight?: number;
  /** Seconds of traffic at the start that are not measured (default 0). */
  warmupSeconds?: number;
}

export interface TrafficResult {
  terminals: number;
  sent: number;
  decisions: number;
  offline: number;
  errors: number;
  byStatus: Record<string, number>;
  seconds: number;
  decisionsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  connectMs: number;
  /** Per second of the measured window (by send time): presentations sent, p50/p99/max latency, ms. */
  bySecond: { second: number; sent: number; p50: number; p99: number; max: number }[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Connects every terminal (all at once, like gates after a network blip) and runs the traffic. */
export async function runTraffic(opts: TrafficOptions): Promise<TrafficResult> {
  const clients = opts.terminals.map(
    (t) =>
      new TerminalClient({
        url: opts.url,
        serial: t.serial,
        secret: t.secret,
        heartbeat: true,
        reconnect: true,
        timeoutMs: 10_000,
      }),
  );
  const connectStart = performance.now();
  await Promise.all(clients.map((c) => c.connect()));
  const connectMs = Math.round(performance.now() - connectStart);

  const latencies: number[] = [];
  const perSecond: number[][] = [];
  const byStatus: Record<string, number> = {};
  let sent = 0;
  let offline = 0;
  let errors = 0;
  let next = 0;
  const warmupEnd = performance.now() + (opts.warmupSeconds ?? 0) * 1000;
  const end = warmupEnd + opts.durationSeconds * 1000;
  let measuredStart = 0;

  const one = async (c: TerminalClient) => {
    const ident = opts.identifications[next++ % opts.identifications.length];
    const t0 = performance.now();
    sent++;
    try {
      const d = await c.present(ident);
      const t1 = performance.now();
      // Closed loop: what was answered within the window (throughput). At a steady rate: every
      // presentation sent within the window, however late its answer (latency is not cut off).
      if (t0 >= warmupEnd && (opts.rate > 0 ? t0 <= end : t1 <= end)) {
        if (!measuredStart) measuredStart = warmupEnd;
        latencies.push(t1 - t0);
        (perSecond[Math.floor((t0 - warmupEnd) / 1000)] ??= []).push(t1 - t0);
        byStatus[d.status] = (byStatus[d.status] ?? 0) + 1;
        if (d.offline) offline++;
      }
    } catch {
      errors++;
    }
  };

  await Promise.all(
    clients.map(async (c, i) => {
      if (opts.rate > 0) {
        const gap = 1000 / opts.rate;
        await sleep((gap * i) / clients.length);
        const pending: Promise<void>[] = [];
        let due = performance.now();
        while (performance.now() < end) {
          pending.push(one(c));
          due += gap;
          const wait = due - performance.now();
          if (wait > 0) await sleep(wait);
        }
        await Promise.all(pending);
      } else {
        const lanes = Array.from({ length: opts.inFlight ?? 1 }, async () => {
          while (performance.now() < end) await one(c);
        });
        await Promise.all(lanes);
      }
    }),
  );
  await Promise.all(clients.map((c) => c.close()));
  const seconds = opts.durationSeconds;
  latencies.sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    terminals: clients.length,
    sent,
    decisions: latencies.length,
    offline,
    errors,
    byStatus,
    seconds,
    decisionsPerSecond: Math.round(latencies.length / seconds),
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p90: round(percentile(latencies, 90)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies[latencies.length - 1] ?? 0),
    },
    connectMs,
    bySecond: Array.from(perSecond, (xs, second) => {
      const s = (xs ?? []).sort((a, b) => a - b);
      return {
        second,
        sent: s.length,
        p50: round(percentile(s, 50)),
        p99: round(percentile(s, 99)),
        max: round(s[s.length - 1] ?? 0),
      };
    }),
  };
}
