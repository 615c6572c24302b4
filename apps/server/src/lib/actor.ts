import type { Permissions } from '@venue/domain';

/**
 * Who acts, as services see a request (STYLE "a request's actor"): built once
 * by the auth plugin from the verified token (`req.auth`), passed to services
 * and to the audit log instead of the HTTP request, so a service knows no
 * HTTP and can be called from a job, a socket or a test alike.
 */
export interface Actor {
  userId: number;
  username: string;
  /** User level of seed 000 §3 (SuperUser 1 is the service operator). */
  level: number;
  /** User role of seed 000 §3 (TECHNICIAN 4 may send technician-only terminal actions). */
  role: number;
  isAdmin: boolean;
  /** Effective flags: an admin has every flag. */
  permissions: Permissions;
  /** The club this request acts on. */
  clubId: number;
  externalClubId: number;
  /** The sign-in session of the request (lib/sessions.ts); absent for jobs and sockets. */
  sessionId?: string;
  /** The caller's address (the socket's, or a TRUST_PROXY proxy's X-Forwarded-For), for the audit log. */
  ip: string;
}
