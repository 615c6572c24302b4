import type { FastifyError, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { isResponseSerializationError, validatorCompiler } from 'fastify-type-provider-zod';
import { unstorableTextPath } from '@venue/domain';
import { AppError } from './errors.js';
import { pgError } from './validation.js';
import { recordDatabaseUnavailable } from './metrics.js';

/**
 * The request validator of every route: the route's zod schema
 * (fastify-type-provider-zod), then one check over the whole parsed value —
 * no string anywhere (a JSON settings record, a free `z.unknown()` field) may
 * hold a NUL or a lone UTF-16 surrogate, which PostgreSQL text and jsonb
 * cannot store (docs/security.md "Input"; the schema parts in `@venue/domain` `parts` check
 * the same per field, this catches what a schema leaves open).
 */
export const requestValidatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  const validate = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);
  return (data: unknown) => {
    const result = validate(data) as { value?: unknown; error?: unknown };
    if (result.error) return result as never;
    const bad = unstorableTextPath(result.value);
    if (bad) {
      return {
        error: [{ keyword: 'invalidText', instancePath: `/${bad.join('/')}`, message: 'invalidText' }],
      } as never;
    }
    return result as never;
  };
};

/**
 * SQLSTATE classes and codes a request can cause with input the schemas let
 * through (PostgreSQL Appendix A). Each answers a 4xx with a catalogue code;
 * the database's own text never reaches the caller.
 */
function databaseAnswer(code: string): AppError | null {
  // Class 22, data exception: out-of-range number (22003), bad date (22007/22008), NUL (22021), bad JSON escape (22P05) ...
  if (code.startsWith('22')) return new AppError('VALIDATION_ERROR', 'Invalid input');
  if (code === '23505') return new AppError('CONFLICT', 'Already exists');
  // Foreign key (23503), not null (23502), check (23514): a value that names nothing or breaks a rule.
  if (code === '23503' || code === '23502' || code === '23514') {
    return new AppError('VALIDATION_ERROR', 'Invalid input');
  }
  // Serialization failure / deadlock after the service's own retries: the caller may try again.
  if (code === '40001' || code === '40P01') return new AppError('CONFLICT', 'Try again');
  return null;
}

/** Seconds a caller is told to wait (`Retry-After`) when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const LOST_CONNECTION_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const LOST_CONNECTION_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Connection ended|connection is closed|terminating connection|Cannot use a pool after calling end|Client was closed/i;

/**
 * SQLSTATE classes no request can cause, each meaning the database cannot be
 * used now (PostgreSQL Appendix A): 08 connection exception, 28 invalid
 * authorization (the server's own credentials refused), 3D invalid catalog
 * (the database is gone), 53 insufficient resources (too many connections,
 * disk full, out of memory), 58 system error (I/O).
 */
const UNAVAILABLE_CLASSES = ['08', '28', '3D', '53', '58'];
/**
 * Single SQLSTATEs of the same kind: 55000 (object not in prerequisite state: "database does not
 * allow connections", a standby not ready), 55006 (object in use), 55P03 (lock not available),
 * 57014 (statement timeout), 57P01–57P05 (admin shutdown, crash shutdown, cannot connect now,
 * database dropped, idle session timeout), 25006 (read-only transaction: a standby answering as
 * primary after a failover).
 */
const UNAVAILABLE_CODES = new Set([
  '55000',
  '55006',
  '55P03',
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '57P04',
  '57P05',
  '25006',
]);

/**
 * True when `err` (or an error it wraps) says the database cannot be reached
 * or used now rather than that the request was wrong: the SQLSTATE classes
 * and codes above, a socket error, or node-postgres's own connect, read or
 * pool errors (docs/operations.md "Database outage"). The console answers
 * these 503 with Retry-After; the gate tells the terminal to decide by its
 * list.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^[0-9A-Z]{5}$/.test(code) && (UNAVAILABLE_CLASSES.includes(code.slice(0, 2)) || UNAVAILABLE_CODES.has(code)))
      return true;
    if (LOST_CONNECTION_ERRNO.has(code)) return true;
    if (typeof e.message === 'string' && LOST_CONNECTION_TEXT.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * The one error handler (docs/security.md "Input"): business errors (AppError) answer their
 * catalogue status and code; schema errors 400 VALIDATION_ERROR with the
 * fields; anti-forgery 403; rate limits 429; database errors caused by input
 * 400/409 by SQLSTATE (logged with the request id, never echoed); the
 * database out of reach 503 DATABASE_UNAVAILABLE with `Retry-After`; anything
 * else 500 GENERAL_ERROR, logged with the request id, with no detail leaked.
 */
export function errorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof AppError) {
    return reply.status(err.status).send({ code: err.code, message: err.message, details: err.details });
  }
  if (Array.isArray(err.validation) && err.validation.length > 0) {
    const details = err.validation.map((v) => ({
      path: (v.instancePath || '').replace(/^\//, '').replaceAll('/', '.'),
      message: v.message,
    }));
    return reply.status(400).send({ code: 'VALIDATION_ERROR', message: 'Invalid input', details });
  }
  if (err.code === 'FST_CSRF_INVALID_TOKEN' || err.code === 'FST_CSRF_MISSING_SECRET') {
    return reply.status(403).send({ code: 'CSRF_INVALID', message: 'Anti-forgery token missing or invalid' });
  }
  if (err.statusCode === 429) {
    return reply.status(429).send({ code: 'TOO_MANY_REQUESTS', message: 'Too many requests' });
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500 && !isResponseSerializationError(err)) {
    const code = err.statusCode === 404 ? 'NOT_FOUND' : err.statusCode === 413 ? 'FILE_TOO_LARGE' : 'VALIDATION_ERROR';
    return reply.status(err.statusCode).send({ code, message: err.message ?? code });
  }
  if (isDatabaseUnavailable(err)) {
    recordDatabaseUnavailable('console');
    req.log.warn({ reqId: req.id, err }, 'database unavailable');
    return reply
      .status(503)
      .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
      .send({ code: 'DATABASE_UNAVAILABLE', message: 'Database unavailable' });
  }
  const sqlstate = pgError(err).code;
  const answer = sqlstate ? databaseAnswer(sqlstate) : null;
  if (answer) {
    req.log.warn({ reqId: req.id, sqlstate, err }, 'database refused the input');
    return reply.status(answer.status).send({ code: answer.code, message: answer.message });
  }
  req.log.error({ reqId: req.id, err }, 'request failed');
  return reply.status(500).send({ code: 'GENERAL_ERROR', message: 'General error', requestId: req.id });
}
