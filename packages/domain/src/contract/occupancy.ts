import {
  AreaInput,
  AreaList,
  AreaPatch,
  AreaRecord,
  CardSharingQuery,
  CardSharingReport,
  InsideList,
  OccupancyNow,
} from '../occupancy.js';
import { IdParams, routes } from './route.js';

/**
 * Live occupancy (issue 36; docs/gate-safety.md "Occupancy"): inside now (the dashboard's tile:
 * roleViewDashboard), who is inside (every user of the club: names only with roleViewClientsList,
 * decided by the service), the attendant's check-out (roleCheckInClients), the areas (editing
 * terminals) and the card-sharing report (the entrance report's permission).
 */
export const occupancy = routes(['occupancy'], {
  now: {
    method: 'GET',
    path: '/api/Occupancy/Now',
    response: OccupancyNow,
    access: { permission: 'roleViewDashboard' },
  },
  inside: { method: 'GET', path: '/api/Occupancy/Inside', response: InsideList, access: {} },
  checkOut: {
    method: 'POST',
    path: '/api/Occupancy/CheckOut/:id',
    params: IdParams,
    response: InsideList,
    access: { permission: 'roleCheckInClients' },
  },
  areas: { method: 'GET', path: '/api/Occupancy/Areas', response: AreaList, access: {} },
  createArea: {
    method: 'POST',
    path: '/api/Occupancy/Areas',
    body: AreaInput,
    response: AreaRecord,
    access: { edit: 'terminals' },
  },
  updateArea: {
    method: 'PATCH',
    path: '/api/Occupancy/Areas/:id',
    params: IdParams,
    body: AreaPatch,
    response: AreaRecord,
    access: { edit: 'terminals' },
  },
  deleteArea: {
    method: 'DELETE',
    path: '/api/Occupancy/Areas/:id',
    params: IdParams,
    response: AreaList,
    access: { edit: 'terminals' },
  },
  cardSharing: {
    method: 'GET',
    path: '/api/Occupancy/CardSharing',
    query: CardSharingQuery,
    response: CardSharingReport,
    access: { permission: 'roleEntrancesReport' },
  },
});
