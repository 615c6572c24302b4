import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, tracingWanted } from './tracing.js';
import { createTestApp, makeOpenGate, signedInAdmin, type TestContext } from '../../test/harness.js';
import { TerminalClient } from '../../../terminal/src/client.js';

/** A span as OTLP/HTTP JSON carries it (opentelemetry-proto, trace/v1). */
interface OtlpSpan {
  traceId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue != null ? Number(v.intValue) : undefined);
};

describe('OpenTelemetry traces are off unless the standard environment asks', () => {
  it('reads the OTLP endpoints and OTEL_TRACES_EXPORTER; none wins', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(false);
  });
});

describe('traces reach an OTLP/HTTP collector: a span per request, continuing traceparent, and per gate decision', () => {
  const received: OtlpSpan[] = [];
  let collector: http.Server;
  let stop: (() => Promise<void>) | null = null;
  let ctx: TestContext;
  const saved: Record<string, string | undefined> = {};
  const ENV = [
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    'OTEL_SERVICE_NAME',
    'OTEL_BSP_SCHEDULE_DELAY',
  ];

  beforeAll(async () => {
    // The collector: OTLP over HTTP with JSON bodies, as opentelemetry-collector's otlphttp receiver takes them.
    collector = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString('utf8')));
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          const data = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
          for (const rs of data.resourceSpans) for (const ss of rs.scopeSpans) received.push(...ss.spans);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const port = (collector.address() as AddressInfo).port;
    for (const k of ENV) saved[k] = process.env[k];
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `http://127.0.0.1:${port}/v1/traces`;
    process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = 'http/json';
    process.env.OTEL_SERVICE_NAME = 'venue-test';
    process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
    stop = await startTracing();
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx?.close();
    await stop?.();
    for (const k of ENV)
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    await new Promise((r) => collector?.close(r));
  });

  it('exports the request span with its route, status and the caller’s trace, and the gate decision span', async () => {
    expect(stop).not.toBeNull();
    const admin = await signedInAdmin(ctx);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/Client?page=1',
      headers: { authorization: `Bearer ${admin.api.token}`, traceparent: `00-${traceId}-${parent}-01` },
    });
    expect(res.statusCode).toBe(200);

    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { member, terminal } = await makeOpenGate(ctx, admin.club.id, {
      card: '7791',
      serial: 'OTEL-1',
      secret: 'otel-secret-1',
    });
    const tc = new TerminalClient({ url: base, serial: 'OTEL-1', secret: 'otel-secret-1', heartbeat: false });
    await tc.connect();
    const d = await tc.present({ kind: 'card', value: member.cardSerial! });
    await tc.close();

    const end = Date.now() + 10_000;
    const find = () => ({
      http: received.find((s) => s.name === 'GET /api/Client'),
      gate: received.find((s) => s.name === 'gate decision'),
    });
    while ((!find().http || !find().gate) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    const { http: h, gate } = find();
    expect(h).toBeDefined();
    expect(h!.traceId).toBe(traceId);
    expect(h!.parentSpanId).toBe(parent);
    expect(h!.kind).toBe(2); // SPAN_KIND_SERVER
    expect(attr(h!, 'http.route')).toBe('/api/Client');
    expect(attr(h!, 'http.response.status_code')).toBe(200);
    expect(gate).toBeDefined();
    expect(attr(gate!, 'venue.terminal_id')).toBe(terminal.id);
    expect(attr(gate!, 'venue.club_id')).toBe(admin.club.id);
    expect(attr(gate!, 'venue.entrance_status')).toBe(d.status);
    // Secrets stay out of spans: no token, no card number.
    const all = JSON.stringify(received);
    expect(all).not.toContain(admin.api.token!);
    expect(all).not.toContain(member.cardSerial!);
  });
});
