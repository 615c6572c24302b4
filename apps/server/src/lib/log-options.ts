import type { FastifyServerOptions } from 'fastify';
import { stdSerializers } from 'pino';

/**
 * What the server's log may hold (docs/security.md "Logs"): never a password,
 * a token or a query's parameters.
 *
 * - A request is logged as its method and path: a query string's values are
 *   replaced by `…` (the seed's `/login?userName=&password=` link, search
 *   words, ID numbers), and the calendar feed's token in its path by `[token]`.
 * - Authorization, cookie and anti-forgery headers are redacted.
 * - A failed query is logged with its SQL but not its parameters (drizzle puts
 *   them in the error's message, stack and `params`: client names, ID numbers,
 *   password hashes on a sign-in).
 */
export function safeUrl(url: string): string {
  const [path, query] = url.split('?', 2);
  const safePath = path.replace(/(\/api\/Calendar\/Feed\/)(?!Rotate\b)[^/]+/i, '$1[token]');
  if (query == null) return safePath;
  const keys = query
    .split('&')
    .filter(Boolean)
    .map((p) => `${p.split('=', 1)[0]}=…`);
  return `${safePath}?${keys.join('&')}`;
}

const PARAMS = /\nparams: [\s\S]*$/;

/** pino's error serializer, without the parameters of a failed query (in `params`, the message and the stack). */
export function safeErr(err: Error): { [key: string]: unknown; type: string; message: string; stack: string } {
  const out = stdSerializers.err(err) as unknown as {
    [key: string]: unknown;
    type: string;
    message: string;
    stack: string;
  };
  const scrub = (o: Record<string, unknown> | undefined, depth = 0) => {
    if (!o || depth > 4) return;
    if ('params' in o) o.params = '[redacted]';
    for (const k of ['message', 'stack'])
      if (typeof o[k] === 'string') o[k] = (o[k] as string).replace(PARAMS, '\nparams: [redacted]');
    scrub(o.cause as Record<string, unknown> | undefined, depth + 1);
  };
  scrub(out as Record<string, unknown>);
  return out;
}

/** The Fastify logger options of the server at `level`, writing to `stream` (default stdout). */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-xsrf-token"]'],
    serializers: {
      req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: safeUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
      err: safeErr,
    },
  };
}
