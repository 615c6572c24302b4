import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { ApiRoute, RouteInput } from '@venue/domain';

/** The request a contract entry's handler gets: params, query and body parsed by the entry's schemas. */
export type ContractRequest<E extends ApiRoute> = FastifyRequest<{
  Params: RouteInput<E['params']>;
  Querystring: RouteInput<E['query']>;
  Body: RouteInput<E['body']>;
}>;

/** What a handler answers: the entry's 200 shape, or the reply itself when it sent a file. */
type ContractAnswer<E extends ApiRoute> = E['response'] extends object ? RouteInput<E['response']> : unknown;

/** A thin handler (STYLE point 3): it calls one service and returns its answer. */
export type ContractHandler<E extends ApiRoute> = (
  req: ContractRequest<E>,
  reply: FastifyReply,
) => Promise<ContractAnswer<E> | FastifyReply>;

/** Route options the contract does not hold because they come from the running config (a rate limit). */
export interface RouteExtras {
  config?: Omit<FastifyContextConfig, keyof ApiRoute['access']>;
}

/**
 * Registers one contract entry: its method and path, its access as the
 * route's `config` (checked by plugins/auth.ts: 401 without a session, 403
 * without the access), and its params, query, body and 200 answer as the
 * zod schema Fastify validates (400 VALIDATION_ERROR) and documents in
 * OpenAPI.
 */
export function route<E extends ApiRoute>(
  app: FastifyInstance,
  entry: E,
  handler: ContractHandler<NoInfer<E>>,
  extras: RouteExtras = {},
): void {
  app.route({
    method: entry.method,
    url: entry.path,
    // A read of one person's data is written to the access log (plugins/access-log.ts, issue 39).
    config: {
      ...entry.access,
      ...(entry.personalData ? { personalData: entry.personalData } : {}),
      ...extras.config,
    } as FastifyContextConfig,
    schema: schemaOf(entry),
    handler: handler as never,
  });
}

/** The Fastify schema of an entry, with only the keys it has (so the OpenAPI document is exactly as declared). */
export function schemaOf(entry: ApiRoute): FastifySchema {
  const schema: FastifySchema & Record<string, unknown> = {};
  if (entry.hide) schema.hide = true;
  else schema.tags = [...entry.tags];
  if (entry.params) schema.params = entry.params;
  if (entry.query) schema.querystring = entry.query;
  if (entry.body) schema.body = entry.body;
  if (entry.response) schema.response = { 200: entry.response };
  if (entry.consumes) schema.consumes = [...entry.consumes];
  if (entry.security) schema.security = [...entry.security];
  return schema;
}

/** Presents a file download: `content-type` (octet-stream unless given) and an attachment named `filename`. */
export function sendDownload(
  reply: FastifyReply,
  filename: string,
  content: Buffer | string,
  type = 'application/octet-stream',
): FastifyReply {
  return reply
    .header('content-type', type)
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(content);
}
