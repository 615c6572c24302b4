import { LockdownOverrides, SafetyCommand, SafetyState } from '../gate-safety.js';
import { IdParams, routes } from './route.js';

/**
 * The gate in an emergency (issue 36; docs/gate-safety.md): the club's state (every signed-in user
 * of the club reads it: the banner shows on every screen), open-all and its release
 * (roleEmergencyOpenAll), lockdown and its release and who passes it (roleLockdown).
 */
export const gateSafety = routes(['gate safety'], {
  state: { method: 'GET', path: '/api/GateSafety/State', response: SafetyState, access: {} },
  openAll: {
    method: 'POST',
    path: '/api/GateSafety/OpenAll',
    body: SafetyCommand,
    response: SafetyState,
    access: { permission: 'roleEmergencyOpenAll' },
  },
  releaseOpenAll: {
    method: 'POST',
    path: '/api/GateSafety/ReleaseOpenAll',
    body: SafetyCommand,
    response: SafetyState,
    access: { permission: 'roleEmergencyOpenAll' },
  },
  lockdown: {
    method: 'POST',
    path: '/api/GateSafety/Lockdown',
    body: SafetyCommand,
    response: SafetyState,
    access: { permission: 'roleLockdown' },
  },
  releaseLockdown: {
    method: 'POST',
    path: '/api/GateSafety/ReleaseLockdown',
    body: SafetyCommand,
    response: SafetyState,
    access: { permission: 'roleLockdown' },
  },
  overrides: {
    method: 'GET',
    path: '/api/GateSafety/Overrides',
    response: LockdownOverrides,
    access: { permission: 'roleLockdown' },
  },
  grantOverride: {
    method: 'PUT',
    path: '/api/GateSafety/Overrides/:id',
    params: IdParams,
    response: LockdownOverrides,
    access: { permission: 'roleLockdown' },
  },
  withdrawOverride: {
    method: 'DELETE',
    path: '/api/GateSafety/Overrides/:id',
    params: IdParams,
    response: LockdownOverrides,
    access: { permission: 'roleLockdown' },
  },
});
