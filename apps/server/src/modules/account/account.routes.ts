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
        rateLimit: {
          max: loginRateLimit,
          timeWindow: 60_000,
          // After body parsing, so the key can include the user name.
          hook: 'preHandler',
          // Per address and per user name, so one caller cannot lock out everyone.
          keyGenerator: (req) =>
            `${req.ip}|${String((req.body as { username?: string } | undefined)?.username ?? '').toLowerCase()}`,
        },
      },
      schema: { tags: ['account'], body: LoginRequest, response: { 200: LoginResponse }, security: [] },
    },
    async (req) => {
      const { userId, tokenVersion } = await checkCredentials(db, req.body);
      const token = await app.jwt.sign({ sub: userId, tv: tokenVersion });
      return { token, expiresIn: tokenTtlSeconds };
    },
  );

  r.get('/api/Account/GetCurrent', { schema: { tags: ['account'], response: { 200: CurrentUser } } }, async (req) =>
    currentUser(db, req.auth.userId, req.auth.clubId, req.auth.externalClubId),
  );
}
