import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Optional OpenTelemetry traces (issue 33; docs/operations.md "Traces").
 *
 * Off unless the standard OpenTelemetry environment asks for them: an OTLP
 * endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
 * or `OTEL_TRACES_EXPORTER` other than `none`. Then `@opentelemetry/sdk-node`
 * (Apache-2.0) is loaded and started, and reads the rest of that environment
 * itself: the exporter (`otlp`, `console`, `zipkin`), the OTLP protocol
 * (`OTEL_EXPORTER_OTLP_PROTOCOL`: `http/protobuf` by default, `http/json`,
 * `grpc`), headers, the sampler (`OTEL_TRACES_SAMPLER`, `…_ARG`) and the
 * service's name (`OTEL_SERVICE_NAME`, default `venue-server`).
 *
 * What is traced, by hand (no monkey-patching instrumentation): every HTTP
 * request as a server span named by its route pattern (`GET /api/Client/:id`),
 * continuing the caller's `traceparent` (W3C Trace Context); and every gate
 * decision (`gate decision`, with the terminal, the club and the entrance
 * status). Off, no hook is added and a decision runs without a span.
 */
const tracer = trace.getTracer('venue-server');

/** Whether an SDK is started in this process: off, the request hooks are not added and a decision runs bare. */
let on = false;

/** Whether the environment asks for traces (see the module's comment). */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter === 'none') return false;
  return Boolean(exporter || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts the OpenTelemetry SDK when the environment asks for traces.
 * @returns how to flush and stop it (call at shutdown), or null when traces are off
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<(() => Promise<void>) | null> {
  if (!tracingWanted(env)) return null;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({ serviceName: env.OTEL_SERVICE_NAME ?? 'venue-server', instrumentations: [] });
  sdk.start();
  on = true;
  return async () => {
    on = false;
    await sdk.shutdown();
    // Back to the no-op API, so that a later start in this process (tests) registers afresh.
    trace.disable();
    propagation.disable();
    context.disable();
  };
}

const spans = new WeakMap<FastifyRequest, Span>();

/** A server span per HTTP request (not WebSocket upgrades: a link lasts for hours); nothing when traces are off. */
export function tracingHooks(app: FastifyInstance): void {
  if (!on) return;
  app.addHook('onRequest', async (req) => {
    if (req.headers.upgrade) return;
    const parent = propagation.extract(context.active(), req.headers);
    const route = req.routeOptions.url ?? 'unmatched';
    const span = tracer.startSpan(
      `${req.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'http.route': route, 'venue.request_id': String(req.id) },
      },
      parent,
    );
    spans.set(req, span);
  });
  app.addHook('onResponse', async (req, reply) => {
    const span = spans.get(req);
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}

/**
 * Runs `fn` (a gate decision) inside a span named `name`; `done` gives the
 * attributes of its outcome. A throw marks the span as an error and is rethrown.
 */
export async function traced<T>(
  name: string,
  attributes: Attributes,
  fn: () => Promise<T>,
  done?: (r: T) => Attributes,
): Promise<T> {
  if (!on) return fn();
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      const r = await fn();
      if (done) span.setAttributes(done(r));
      return r;
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}
