import type { FastifyInstance, FastifyReply } from 'fastify';
import { contract, type LoginResponse } from '@venue/domain';
import { route, type ContractRequest } from '../../lib/contract-route.js';
import { checkCredentials, currentUser } from './account.service.js';
import { endSessions, startSession } from '../../lib/sessions.js';

/** Sign-in and the current user (seed 000 §7 "Auth and account"); the entries are `contract.account`. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { bus } = app.deps;
  const { tokenTtlSeconds, loginRateLimit, sessionIdleSeconds } = app.deps.config;

  /** Checks the credentials and signs a token; a delayed sign-in answers its retry-after header. */
  async function login(
    req: ContractRequest<typeof contract.account.login>,
    reply: FastifyReply,
  ): Promise<LoginResponse> {
    let checked;
    try {
      checked = await checkCredentials(db, req.body, {
        ip: req.ip,
        onSecurityEvent: (e) =>
          req.log.warn(
            { security: e, ip: req.ip },
            e.event === 'login.attack' ? 'sign-in: sustained attempts under one name' : 'sign-in delay started',
          ),
      });
    } catch (err) {
      const retry = (err as { details?: { retryAfterSeconds?: number } }).details?.retryAfterSeconds;
      if (retry) void reply.header('retry-after', String(retry));
      throw err;
    }
    // A session per sign-in (docs/security.md "Sessions"): the token names it, so it can end before the token expires.
    const sid = await startSession(db, { userId: checked.userId, ip: req.ip, ttlSeconds: tokenTtlSeconds });
    const token = await app.jwt.sign({ sub: checked.userId, tv: checked.tokenVersion, sid });
    return { token, expiresIn: tokenTtlSeconds, idleTimeoutSeconds: sessionIdleSeconds };
  }

  // Per address (the socket's, or X-Forwarded-For from a TRUST_PROXY proxy only);
  // per user name and address, the growing delay of checkCredentials.
  const rateLimit = { max: loginRateLimit, timeWindow: 60_000, keyGenerator: (req: { ip: string }) => req.ip };
  route(app, contract.account.login, login, { config: { rateLimit } });
  route(app, contract.account.current, async (req) =>
    currentUser(db, req.auth.userId, req.auth.clubId, req.auth.externalClubId),
  );
  route(app, contract.account.logout, async (req) => {
    await endSessions(db, bus, { sessionId: req.auth.sessionId! }, 'signout');
    return { ok: true as const };
  });
}
