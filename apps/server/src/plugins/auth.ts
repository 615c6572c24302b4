import fp from 'fastify-plugin';
import jwt from '@fastify/jwt';
import { eq } from 'drizzle-orm';
import { can, routeAsks, UserLevel, type EditArea, type NAV_RULES, type PermissionFlag } from '@venue/domain';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import type { Actor } from '../lib/actor.js';
import { accessContext, effectivePermissions } from '../lib/access.js';
import { sessionOfToken, type TokenClaims } from '../lib/sessions.js';
import { clubs } from '../db/schema.js';
import type { Db } from '../db/index.js';

/** What an authenticated request knows about its caller (DESIGN §6): the actor services take. */
export type AuthContext = Actor;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
  }
  interface FastifyContextConfig {
    /** No sign-in needed (login, health, docs). */
    public?: boolean;
    /** Flag the caller needs; checked after sign-in (403 when missing). */
    permission?: PermissionFlag;
    /** Only the service operator (level SuperUser). */
    operator?: boolean;
    /** Navigation entry whose rule of seed 000 §6 the caller must pass (flags, club settings, club class). */
    nav?: keyof typeof NAV_RULES;
    /** Area the caller must be allowed to edit (seed 001 §6, `EDIT_FLAGS`). */
    edit?: EditArea;
    /** Any signed-in caller, the operator without a chosen club too (sign-out). */
    anyClub?: boolean;
  }
}
declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: TokenClaims;
  }
}

/**
 * Bearer-token authentication for every /api route not marked public, and the
 * per-route permission check. Tokens are HS256 only, carry the user id, a
 * token version and the sign-in session (lib/sessions.ts): an ended or idle
 * session, a disabled user or club, or a bumped version rejects the token.
 */
export const authPlugin = fp<{ db: Db; secret: string; tokenTtlSeconds: number; sessionIdleSeconds: number }>(
  async (app, opts) => {
    await app.register(jwt, {
      secret: opts.secret,
      sign: { algorithm: 'HS256', expiresIn: opts.tokenTtlSeconds },
      verify: { algorithms: ['HS256'] },
    });
    app.decorateRequest('auth', null as unknown as AuthContext);

    // Before validation, so that a caller without a token or a permission
    // learns nothing about the body (401/403 come before 400).
    app.addHook('preValidation', async (req, reply) => {
      // By the matched route's configuration (docs/security.md): every route is
      // protected unless declared public; an unrouted request is answered 404.
      const cfg = req.routeOptions.config;
      if (cfg.public || !req.routeOptions.url) return;
      req.auth = await authenticate(req, opts.db, opts.sessionIdleSeconds);
      // From here every line of the request's log names its club and user (docs/operations.md "Logs").
      req.log = reply.log = req.log.child({ clubId: req.auth.clubId, userId: req.auth.userId });
      // The one access policy (packages/domain access.ts), by what the route declares.
      const asks = routeAsks(cfg);
      if (asks.length === 0) return;
      const ctx = await accessContext(opts.db, req.auth, cfg.nav !== undefined);
      for (const a of asks) if (!can(ctx, a)) throw new AppError('NOT_AUTHORIZED');
    });
  },
);

async function authenticate(req: FastifyRequest, db: Db, idleSeconds: number): Promise<AuthContext> {
  let claims: TokenClaims;
  try {
    claims = await req.jwtVerify();
  } catch {
    throw new AppError('UNAUTHORIZED', 'Authentication error');
  }
  const session = await sessionOfToken(db, claims, idleSeconds);
  if (!session) throw new AppError('UNAUTHORIZED', 'Authentication error');
  const u = session.user;
  let clubId = u.clubId;
  let externalClubId: number | null = null;
  const header = req.headers['clubexternalid'];
  if (u.level === UserLevel.SuperUser && typeof header === 'string' && /^\d+$/.test(header)) {
    const [c] = await db
      .select()
      .from(clubs)
      .where(eq(clubs.externalClubId, Number(header)))
      .limit(1);
    if (!c) throw new AppError('NOT_FOUND', 'club not found');
    clubId = c.id;
    externalClubId = c.externalClubId;
  } else if (clubId != null) {
    // The user's own club came with the session (a disabled club's session was refused there).
    externalClubId = session.club?.externalClubId ?? null;
  }
  if (clubId == null || externalClubId == null) {
    // An operator without a selected club can only call operator routes.
    const cfg = req.routeOptions.config;
    if (!cfg.operator && !cfg.anyClub) throw new AppError('NOT_FOUND', 'club not selected');
  }
  return {
    userId: u.id,
    username: u.username,
    level: u.level,
    role: u.role,
    isAdmin: u.isAdmin,
    permissions: effectivePermissions(u),
    clubId: clubId ?? 0,
    externalClubId: externalClubId ?? 0,
    sessionId: session.sessionId,
    ip: req.ip,
  };
}
