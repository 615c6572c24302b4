import { ChartData, DashboardCount, HistoryStatus } from '../schemas/dashboard.js';
import { EmptyBody, routes, type ApiRouteSpec } from './route.js';

const access = { permission: 'roleViewDashboard' } as const;
const count = <P extends `/api/Dashboard/${string}`>(path: P) =>
  ({ method: 'POST', path, body: EmptyBody, response: DashboardCount, access }) as const satisfies ApiRouteSpec;
const chart = <P extends `/api/Dashboard/${string}`>(path: P) =>
  ({ method: 'POST', path, body: EmptyBody, response: ChartData, access }) as const satisfies ApiRouteSpec;

/**
 * Dashboard counters and charts (seed 000 §2, §7 "Dashboard"): POST calls
 * with an empty body. Money figures in agorot. The last four are ours (seed
 * 000 §2 names the figures, not their calls): `historyStatus` says whether
 * the club's history is still being written, so the dashboard can say why
 * its figures are not all there yet.
 */
export const dashboard = routes(['dashboard'], {
  monthlyEntrances: count('/api/Dashboard/GetMonthlyEntranceCount'),
  activeClients: count('/api/Dashboard/GetActiveClientsCount'),
  entranceByStatus: chart('/api/Dashboard/GetChartEntranceByStatus'),
  confirmedEntranceByTime: chart('/api/Dashboard/GetChartConfirmedEntranceByTime'),
  monthlyIncome: count('/api/Dashboard/GetMonthlyIncome'),
  expiredLicenses: count('/api/Dashboard/GetExpiredLicensesCount'),
  payments: chart('/api/Dashboard/GetChartPaymentData'),
  amountByItemType: chart('/api/Dashboard/GetChartDataByItemType'),
  quantityByItemType: chart('/api/Dashboard/GetChartDataQtyByItemType'),
  amountByProduct: chart('/api/Dashboard/GetChartDataByProduct'),
  quantityByProduct: chart('/api/Dashboard/GetChartDataQtyByProduct'),
  lastWeekArrivals: count('/api/Dashboard/GetLastWeekArrivalsCount'),
  validLicenses: count('/api/Dashboard/GetValidLicensesCount'),
  entranceByGroup: chart('/api/Dashboard/GetChartEntranceByGroup'),
  historyStatus: {
    method: 'GET',
    path: '/api/Dashboard/GetHistoryStatus',
    response: HistoryStatus,
    access,
  },
});
