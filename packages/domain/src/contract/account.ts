import { CurrentUser, LoginRequest, LoginResponse } from '../schemas/account.js';
import { OkResponse } from '../schemas/common.js';
import { routes } from './route.js';

/** Sign-in and the current user (seed 000 §7 "Auth and account"). */
export const account = routes(['account'], {
  /** Sign-in: a bearer token valid `expiresIn` seconds; 401 on wrong credentials, 429 with retry-after while delayed. */
  login: {
    method: 'POST',
    path: '/api/Account',
    body: LoginRequest,
    response: LoginResponse,
    access: { public: true },
    security: [],
  },
  current: { method: 'GET', path: '/api/Account/GetCurrent', response: CurrentUser, access: {} },
  /** Sign-out: ends the caller's session at once (docs/security.md "Sessions"); its token and live sockets stop working. */
  logout: { method: 'POST', path: '/api/Account/Logout', response: OkResponse, access: { anyClub: true } },
});
