import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import multipart from '@fastify/multipart';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { DATABASE_RETRY_AFTER_SECONDS, errorHandler, requestValidatorCompiler } from './lib/error-handler.js';
import { databaseAnswers } from './db/query.js';
import { authPlugin } from './plugins/auth.js';
import { accessLogPlugin } from './plugins/access-log.js';
import { metricsPlugin } from './plugins/metrics.js';
import { tracingHooks } from './lib/tracing.js';
import { configureReconciliation } from './integrations/clearing/charges.js';
import { collectRoutes } from './lib/route-table.js';
import { loadSecrets } from './lib/secrets.js';
import { loggerOptions } from './lib/log-options.js';
import { EventBus, PgEventBus } from './lib/event-bus.js';
import { TerminalRegistry } from './lib/terminal-registry.js';
import { TerminalLinks } from './realtime/terminal-links.js';
import { registerModules } from './routes.js';
import { trackWrites } from './lib/replica-route.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false` only for a page that a form of another site posts to and that
     * acts on no session (the sandbox provider's payment page); every other
     * route other than GET/HEAD/OPTIONS needs the anti-forgery header.
     */
    antiForgery?: false;
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  /** Shared bus for live events; one per process (tests may pass their own). */
  bus?: EventBus;
  /** Terminals connected to this instance. */
  terminals?: TerminalRegistry;
  /** The terminal sockets of this instance, ended gracefully when the app closes (realtime/terminal-links.ts). */
  links?: TerminalLinks;
  /** Where the log goes (default stdout); tests read it. */
  logStream?: NodeJS.WritableStream;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Required<Omit<AppDeps, 'logStream'>>;
  }
}

/** Sets the anti-forgery cookies (XSRF-TOKEN for the console to echo, _csrf its secret) when the request lacks them. */
function giveXsrfCookie(req: FastifyRequest, reply: FastifyReply, secure: boolean): void {
  if (req.cookies['XSRF-TOKEN'] && req.cookies._csrf) return;
  reply.setCookie('XSRF-TOKEN', reply.generateCsrf(), { path: '/', sameSite: 'strict', httpOnly: false, secure });
}

/**
 * Builds the Fastify application from plugins (DESIGN §2 `src/app.ts`),
 * without listening, so tests drive it through `app.inject`.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : loggerOptions(config.logLevel, deps.logStream),
    // X-Forwarded-For is believed only from the configured proxies (TRUST_PROXY, docs/security.md).
    trustProxy: config.trustProxy ?? false,
    bodyLimit: 5 * 1024 * 1024,
    // Every log line of a request carries its id (docs/operations.md "Logs"): the caller's
    // X-Request-Id when it is a plain token (a proxy's), else a new random one; answered back.
    genReqId: requestId,
  }).withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  app.setValidatorCompiler(requestValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // On PostgreSQL live events fan out across server instances (LISTEN/NOTIFY); PGlite stays in-process.
  const bus =
    deps.bus ??
    (database.url ? new PgEventBus(database.url, (reason) => app.log.warn(`live events: ${reason}`)) : new EventBus());
  await bus.start();
  app.addHook('onClose', async () => bus.close());
  const terminals = deps.terminals ?? new TerminalRegistry();
  const links = deps.links ?? new TerminalLinks(database.db);
  app.decorate('deps', { config, database, bus, terminals, links });
  configureReconciliation({ orphanAfterSeconds: config.orphanChargeSeconds });
  // Before every route: the HTTP latency of each (by its pattern) and the gauges' source (plugins/metrics.ts).
  await metricsPlugin(app);
  // A span per request when OpenTelemetry traces are on (lib/tracing.ts); no-op otherwise.
  tracingHooks(app);
  // Every route is protected unless it is declared public (docs/security.md): the
  // hooks below read the matched route's own configuration, never the raw URL,
  // so no encoding of a path can reach a route around them.
  // The API documentation is public (DESIGN §3: browsable at /api/docs).
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) route.config = { ...route.config, public: true };
  });
  collectRoutes(app);

  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((req, reply) => {
    // The page answers a browser's GET of a console route; any other method or an API path is a 404
    // (a POST to a path climbing out of /sandbox/pay/ reached sendFile and answered 500).
    if (isApiPath(req.url) || (req.method !== 'GET' && req.method !== 'HEAD') || !existsSync(webIndex(config))) {
      return reply.status(404).send({ code: 'NOT_FOUND', message: 'Not found' });
    }
    // A missing code file (an old page asking for a file an update replaced) is a 404, never the page:
    // the console then reloads once to get the new files (apps/web/src/app/chunkReload.ts).
    if (/^\/(m\/)?assets\//.test(req.url)) return reply.status(404).send({ code: 'NOT_FOUND', message: 'Not found' });
    // The member app (docs/members.md): its own page at /m, never the console's.
    if (/^\/m(\/|\?|#|$)/.test(req.url)) {
      giveXsrfCookie(req, reply, config.production);
      return reply.header('cache-control', 'no-cache').sendFile('m/index.html');
    }
    // Client-side routes of the console (/login, /management/...) get index.html, never cached,
    // with the anti-forgery cookie when missing: the sign-in call then needs no GET /api/health
    // first (one round trip less before the dashboard; issue 19 load speed).
    giveXsrfCookie(req, reply, config.production);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // 'self' covers the console's own live socket (ws/wss on the same host, CSP Level 3); no other host.
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  // JSON answers over 1 KB compressed (brotli at quality 4: a fraction of a millisecond per report
  // page; quality 11 is for the build's files). Spreadsheets are zip files already and are left alone.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(cookie);
  // With a read replica, a user's own writes are read back from the primary (db/replica.ts).
  if (database.reads) trackWrites(app, database.reads);
  await app.register(csrf, {
    cookieKey: '_csrf',
    // Secure in production (served over HTTPS behind its proxy, docs/operations.md): never sent in clear.
    cookieOpts: { path: '/', sameSite: 'strict', httpOnly: true, signed: false, secure: config.production },
    getToken: (req) => req.headers['x-xsrf-token'] as string | undefined,
  });
  // Double-submit anti-forgery (DESIGN §3): the console reads XSRF-TOKEN and
  // echoes it in X-XSRF-TOKEN on every call other than GET or HEAD.
  // It runs for every routed request (whatever the encoding of its path); the
  // console's static files are GET only, and an unrouted request has nothing to forge.
  app.addHook('onRequest', async (req, reply) => {
    if (!req.routeOptions.url) return;
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') {
      if (!req.routeOptions.url.startsWith('/api/')) return;
      giveXsrfCookie(req, reply, config.production);
      return;
    }
    if (req.headers.upgrade === 'websocket' || req.routeOptions.config.antiForgery === false) return;
    await new Promise<void>((resolve, reject) => {
      app.csrfProtection(req, reply, (err?: Error) => (err ? reject(err) : resolve()));
    });
  });
  await app.register(rateLimit, { global: false });
  // Graceful stop (docs/operations.md "Shutdown"): instead of the plugin's close of every socket without
  // waiting, closeSockets ends the terminal links first, before the listener, the jobs and the pool.
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 }, preClose: async () => closeSockets(app) });
  // Uploads (DESIGN §10): registered once here for every area; each route passes its own size limit to req.file().
  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 10 } });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Venue console API', version: '38.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const secrets = await loadSecrets(database.db, { production: config.production });
  await app.register(authPlugin, {
    db: database.db,
    secret: secrets.jwtSecret,
    tokenTtlSeconds: config.tokenTtlSeconds,
    sessionIdleSeconds: config.sessionIdleSeconds,
  });
  await app.register(accessLogPlugin, { db: database.db });

  healthRoutes(app, config, database);
  await registerModules(app);

  if (existsSync(webIndex(config))) {
    // The console's files are the only public routes outside /api, declared so in their own scope.
    await app.register(async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.config = { ...route.config, public: true };
      });
      await scope.register(fastifyStatic, {
        root: webRoot(config),
        wildcard: true,
        index: 'index.html',
        // The build writes .br and .gz beside each file (apps/web/scripts/precompress.mjs).
        preCompressed: true,
        cacheControl: false,
        setHeaders: (res, file) => res.setHeader('cache-control', cacheControlOf(file)),
      });
    });
  }
  return app;
}

/** Liveness and readiness (docs/operations.md "Health and readiness"). */
function healthRoutes(app: FastifyInstance, config: Config, database: Database): void {
  // Liveness: the process answers (a supervisor restarts it when this fails). No database call.
  app.get('/api/health', { config: { public: true }, schema: { hide: true } }, async () => ({
    ok: true,
    db: database.kind,
    // The console's sign-in link signs in by itself only where this is true (config.urlSignIn).
    urlSignIn: config.urlSignIn,
  }));
  // Readiness: the database answers within READY_TIMEOUT_MS (a load balancer sends no traffic while 503).
  app.get('/api/ready', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
    const ready = await databaseAnswers(database.db, READY_TIMEOUT_MS);
    if (!ready) {
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ code: 'DATABASE_UNAVAILABLE', message: 'Database unavailable' });
    }
    return { ok: true, db: database.kind };
  });
}

/**
 * Ends the instance's WebSockets when the app closes: no new upgrade, the terminal links drained
 * (TerminalLinks.drain: decisions in flight sent, 1001, last contact written, instance released),
 * then every other socket (the console's live feed) closed with 1001 "going away".
 */
async function closeSockets(app: FastifyInstance): Promise<void> {
  app.server.removeAllListeners('upgrade');
  const drained = await app.deps.links.drain();
  if (!drained.settled) app.log.warn(drained, 'terminal links did not all end in time');
  const wss = app.websocketServer;
  for (const client of wss.clients) client.close(1001, 'server stopping');
  const closed = new Promise<void>((resolve) => wss.close(() => resolve()));
  // A peer that does not answer the close frame is cut off after 2 s (ws would wait 30 s).
  const cut = setTimeout(() => {
    for (const client of wss.clients) client.terminate();
  }, 2_000);
  await closed;
  clearTimeout(cut);
}

/** Longest wait of the readiness check for `SELECT 1` (ms). */
const READY_TIMEOUT_MS = 2_000;

/** An incoming X-Request-Id kept as the request's id: letters, digits and `._:-`, at most 64. */
const REQUEST_ID = /^[\w.:-]{1,64}$/;

/** The id of a request: the caller's X-Request-Id when it is a plain token, else a random UUID. */
function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** Whether a raw request URL names an /api path once percent-decoded (for the not-found answer only). */
function isApiPath(url: string): boolean {
  let path = url.split('?')[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed encoding is not a console route either.
    return true;
  }
  return /^\/+api(\/|$)/i.test(path);
}

/**
 * Cache policy of a console file: the build's hashed files under assets/
 * never change under their name (a year, immutable); everything else
 * (index.html, icons) is revalidated on every load, so an update is seen at once.
 */
export function cacheControlOf(file: string): string {
  return /[\\/]assets[\\/]/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

function webRoot(config: Config): string {
  return path.resolve(config.webDist ?? path.join(import.meta.dirname, '../../web/dist'));
}
function webIndex(config: Config): string {
  return path.join(webRoot(config), 'index.html');
}
