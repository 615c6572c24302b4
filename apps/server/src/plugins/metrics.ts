import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { databaseAnswers } from '../db/query.js';
import { addMetricsSource, metricsText, recordHttpRequest } from '../lib/metrics.js';

/**
 * The operator's view of the server (docs/operations.md "Metrics"):
 *
 * - every HTTP request is timed by its route's pattern (`/api/Client/:id`,
 *   never the raw URL: an id or a search word in a label would make a series
 *   per value), method and status class;
 * - the app's gauges' source (terminals connected here, the database pools,
 *   whether the database answers) is added for the life of the app;
 * - `GET /metrics` on the public port answers only with
 *   `Authorization: Bearer <METRICS_TOKEN>`, and 404 to anyone else (as if
 *   there were no such page) — and to everyone when no token is set: the
 *   metrics are never open by default. The other way is a port of their own
 *   (`startMetricsServer`, METRICS_PORT), on the loopback address unless
 *   METRICS_HOST says otherwise.
 */
export async function metricsPlugin(app: FastifyInstance): Promise<void> {
  const { database, terminals, config } = app.deps;
  const remove = addMetricsSource({
    terminals: () => terminals.size,
    pools: () => database.poolStats(),
    databaseAnswers: () => databaseAnswers(database.db, PROBE_MS),
  });
  app.addHook('onClose', async () => remove());

  app.addHook('onResponse', async (req, reply) => {
    // A WebSocket's upgrade lasts as long as its link: not a request's latency.
    if (req.headers.upgrade) return;
    recordHttpRequest(req.method, routeLabel(req), reply.statusCode, reply.elapsedTime / 1000);
  });

  const token = config.metricsToken;
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    if (!token || !bearerMatches(req.headers.authorization, token)) {
      return reply.status(404).send({ code: 'NOT_FOUND', message: 'Not found' });
    }
    const { contentType, body } = await metricsText();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}

/** Longest wait of the scrape's database check (ms). */
const PROBE_MS = 1_000;

/** The route label of a request: its matched pattern, or `unmatched` (never the raw URL). */
function routeLabel(req: FastifyRequest): string {
  return req.routeOptions.url ?? 'unmatched';
}

/** Whether an Authorization header carries the bearer `token` (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!m) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]), digest(token));
}

/**
 * Serves `GET /metrics` on a port of its own (METRICS_PORT on METRICS_HOST, default 127.0.0.1),
 * apart from the public port: for a Prometheus on the same host or network. Any other path or
 * method answers 404.
 * @returns the listening server (its `address().port`) and how to close it
 */
export async function startMetricsServer(
  port: number,
  host: string,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    metricsText().then(
      ({ contentType, body }) =>
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
