import { z } from 'zod';
import {
  CheckInRequest,
  CheckInResult,
  FrontDeskFindQuery,
  FrontDeskFindResult,
  FrontDeskGate,
  FrontDeskGlance,
  FrontDeskGlanceQuery,
  SellEntranceRequest,
  SellEntranceResult,
} from '../schemas/front-desk.js';
import { IdParams, routes } from './route.js';

const view = { permission: 'roleViewClientsList' } as const;

/**
 * The front desk (issue 35; docs/front-desk.md): find a client, see them at a
 * glance with the gate's verdict, check them in through a gate, sell an
 * entrance that admits. Overriding a refusal needs roleOverrideEntrance as
 * well (checked by the service with `can()`: it depends on the body).
 */
export const frontDesk = routes(['front desk'], {
  gates: { method: 'GET', path: '/api/FrontDesk/Gates', response: z.array(FrontDeskGate), access: view },
  find: {
    method: 'GET',
    path: '/api/FrontDesk/Find',
    query: FrontDeskFindQuery,
    response: FrontDeskFindResult,
    access: view,
  },
  glance: {
    method: 'GET',
    path: '/api/FrontDesk/Client/:id',
    personalData: { kind: 'details', of: 'client' },
    params: IdParams,
    query: FrontDeskGlanceQuery,
    response: FrontDeskGlance,
    access: view,
  },
  checkIn: {
    method: 'POST',
    path: '/api/FrontDesk/CheckIn',
    body: CheckInRequest,
    response: CheckInResult,
    access: { permission: 'roleCheckInClients' },
  },
  /** Also needs roleCheckInClients (the sale admits): checked by the service with `can()`. */
  sellEntrance: {
    method: 'POST',
    path: '/api/FrontDesk/SellEntrance',
    body: SellEntranceRequest,
    response: SellEntranceResult,
    access: { permission: 'roleManageClientMoney' },
  },
});
