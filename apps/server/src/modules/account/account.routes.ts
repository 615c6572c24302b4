import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CurrentUser, LoginRequest, LoginResponse } from '@venue/domain';
import { checkCredentials, currentUser } from './account.service.js';

/** Sign-in and the current user (seed 000 §7 "Auth and account"). */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const { tokenTtlSeconds, loginRateLimit } = app.deps.config;

  r.post(
    '/api/Account',
    {
      config: {
        public: true,
        // Per address (the socket's, or X-Forwarded-For from a TRUST_PROXY proxy only);
        // per user name, whatever the address, the growing delay of checkCredentials.
        rateLimit: { max: loginRateLimit, timeWindow: 60_000, keyGenerator: (req) => req.ip },
      },
      schema: { tags: ['account'], body: LoginRequest, response: { 200: LoginResponse }, security: [] },
    },
    async (req, reply) => {
      let checked;
      try {
        checked = await checkCredentials(db, req.body, {
          ip: req.ip,
          onSecurityEvent: (e) => req.log.warn({ security: e, ip: req.ip }, 'sign-in delay started'),
        });
      } catch (err) {
        const retry = (err as { details?: { retryAfterSeconds?: number } }).details?.retryAfterSeconds;
        if (retry) void reply.header('retry-after', String(retry));
        throw err;
      }
      const { userId, tokenVersion } = checked;
      const token = await app.jwt.sign({ sub: userId, tv: tokenVersion });
      return { token, expiresIn: tokenTtlSeconds };
    },
  );

  r.get('/api/Account/GetCurrent', { schema: { tags: ['account'], response: { 200: CurrentUser } } }, async (req) =>
    currentUser(db, req.auth.userId, req.auth.clubId, req.auth.externalClubId),
  );
}
