import fp from 'fastify-plugin';
import jwt from '@fastify/jwt';
import { eq } from 'drizzle-orm';
import { can, routeAsks, UserLevel, type EditArea, type NAV_RULES, type PermissionFlag } from '@venue/domain';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import type { Actor } from '../lib/actor.js';
import { accessContext, effectivePermissions } from '../lib/access.js';
import { sessionOfToken, type TokenClaims } from '../lib/sessions.js';
import { memberSessionOf, type MemberSession } from '../lib/member-sessions.js';
import { createHmac } from 'node:crypto';
import { clubs } from '../db/schema.js';
import type { Db } from '../db/index.js';

/** What an authenticated request knows about its caller (DESIGN §6): the actor services take. */
export type AuthContext = Actor;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
    /** The member of a member route (docs/members.md "Session kind"); unset on every other route. */
    member: MemberSession;
  }
  interface FastifyInstance {
    /** Keys derived from the server's signing key: the member codes' hash key, the sandbox hosted page's signing key. */
    keys: { memberCode: Buffer; hostedPage: Buffer };
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
    /** Only a member token (docs/members.md); a member token reaches nothing else. */
    member?: boolean;
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
    app.decorateRequest('member', null as unknown as MemberSession);
    const derive = (label: string) => createHmac('sha256', opts.secret).update(label).digest();
    app.decorate('keys', { memberCode: derive('member-code'), hostedPage: derive('sandbox-hosted-page') });

    // Before validation, so that a caller without a token or a permission
    // learns nothing about the body (401/403 come before 400).
    app.addHook('preValidation', async (req, reply) => {
      // By the matched route's configuration (docs/security.md): every route is
      // protected unless declared public; an unrouted request is answered 404.
      const cfg = req.routeOptions.config;
      if (cfg.public || !req.routeOptions.url) return;
      if (cfg.member) {
        req.member = await authenticateMember(req, opts.db, opts.sessionIdleSeconds);
        req.log = reply.log = req.log.child({ clubId: req.member.clubId, memberSession: req.member.sessionId });
        return;
      }
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

/**
 * A member route's caller (docs/members.md "Session kind"): a member token
 * (claim `ms`) whose member session may act; a staff token is 401 here, as a
 * member token is 401 on every staff route (it has no `sid`). Routes other than
 * the club list, the choice of a club and sign-out need a chosen club (404).
 */
async function authenticateMember(req: FastifyRequest, db: Db, idleSeconds: number): Promise<MemberSession> {
  let claims: TokenClaims;
  try {
    claims = await req.jwtVerify();
  } catch {
    throw new AppError('UNAUTHORIZED', 'Authentication error');
  }
  const session = await memberSessionOf(db, claims, idleSeconds, req.ip);
  if (!session) throw new AppError('UNAUTHORIZED', 'Authentication error');
  if ((session.clubId == null || session.clientId == null) && !req.routeOptions.config.anyClub)
    throw new AppError('NOT_FOUND', 'club not selected');
  return session;
}

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
