import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  can,
  KALA_CLUB_FROM,
  NAV_ENTRIES,
  NAV_RULES,
  PERMISSION_FLAGS,
  REPORTS,
  UserLevel,
  type Capacity,
  type Club,
  type CurrentUser,
  type PermissionFlag,
  type Permissions,
} from '@venue/domain';
import { Api, createTestApp, makeClub, makeUser, TEST_PASSWORD, type TestContext } from '../../test/harness.js';

/**
 * Menus from the same policy as the server (issue 35 item 5): for every
 * entry of the navigation and a set of permission profiles, the console's
 * `can({open})` shows the entry iff the seed's rule (seed 000 §6) allows it
 * and the server answers the calls its screen makes on opening without 403.
 * The calls are written here from the screens (features/<area>/use<Area>.ts),
 * not read from the domain's list, so that the two are checked against each
 * other. Before the fix, "General schedules" was shown to every user of a
 * regular club and its list answered 403 to all but those who may view groups.
 */

type Call = { method: 'GET' | 'POST'; url: string; body?: object };
const get = (url: string): Call => ({ method: 'GET', url });
const post = (url: string, body: object = {}): Call => ({ method: 'POST', url, body });

/** What each entry's screen asks for when it opens (its list or counters). */
const SCREEN_CALLS: Record<string, Call[]> = {
  dashboard: [post('/api/Dashboard/GetMonthlyEntranceCount'), post('/api/Dashboard/GetActiveClientsCount')],
  frontDesk: [get('/api/FrontDesk/Gates'), get('/api/FrontDesk/Find?q=%D7%9B%D7%94%D7%9F')],
  gateSafety: [get('/api/GateSafety/State')],
  occupancy: [get('/api/Occupancy/Inside'), get('/api/Occupancy/Areas')],
  bookings: [get('/api/Booking/Slots'), get('/api/Booking/Resource')],
  bookingEvening: [get('/api/Booking/Evening')],
  clients: [get('/api/Client')],
  groups: [get('/api/Group')],
  products: [get('/api/Product')],
  terminals: [get('/api/Terminal')],
  settings: [get('/api/Club/GetCurrent'), get('/api/Reference/Cities')],
  calendar: [get('/api/Calendar/Events?from=2026-01-01&to=2026-01-31')],
  users: [get('/api/User'), get('/api/EmployeePosition')],
  schedules: [get('/api/Schedule/GetGeneral')],
  terminalMessages: [get('/api/TerminalMessage')],
  attendance: [post('/api/AttendanceLog/GetAttendanceLogs', {}), get('/api/AttendanceLog/GetEmployees')],
  employeePositions: [get('/api/EmployeePosition')],
  feedbackCategories: [get('/api/FeedbackCategory')],
  incidents: [get('/api/Incident')],
  notifications: [get('/api/Notification/Outbox'), get('/api/Notification/Transport')],
  operatorClubs: [get('/api/Operator/Club')],
  operatorLicenses: [get('/api/Operator/LicenseRequest')],
  operatorCharges: [get('/api/Operator/ClubCharge')],
  operatorTerminals: [get('/api/Operator/Terminal')],
  // Every report screen: its report call (the catalogue's call of that entry).
  ...Object.fromEntries(
    Object.values(REPORTS).map((r) => [r.navKey, [post(`/api/Report/${r.call}`, { period: 'day' })]]),
  ),
};

/** Settings that only reveal entries: on, so that the flags decide. */
const REVEALING = {
  isEmployeeAttendanceEnabled: true,
  isIncidentReportEnabled: true,
  isUpsellEnabled: true,
  isSaferPaymentsEnabled: true,
  isQuickExitEnabled: true,
};

const only = (...flags: PermissionFlag[]): Partial<Permissions> => Object.fromEntries(flags.map((f) => [f, true]));

/** The profiles: nobody, each flag alone, and the front desk's, the bookkeeper's and the scheduler's. */
const PROFILES: { name: string; permissions: Partial<Permissions>; isAdmin?: boolean; level?: number }[] = [
  { name: 'no flag', permissions: {} },
  ...PERMISSION_FLAGS.filter((f) => f !== 'roleIsAdmin').map((f) => ({ name: f, permissions: only(f) })),
  {
    name: 'cashier (clients and money)',
    permissions: only('roleViewClientsList', 'roleEditClients', 'roleManageClientMoney'),
  },
  {
    name: 'bookkeeper (money reports)',
    permissions: only('rolePaymentesReport', 'rolePurchasesReport', 'roleCashReport', 'roleDebtsReport'),
  },
  { name: 'scheduler (groups)', permissions: only('roleViewClientGroupList', 'roleEditClientGroups') },
  { name: 'club admin', permissions: {}, isAdmin: true },
];

describe('menus from the same policy as the server: an entry shows iff its rule allows and its screen is not refused', () => {
  let ctx: TestContext;
  let regular: { id: number; externalClubId: number } | undefined;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  /** Signs a user in and answers, for each navigation entry, what the console shows and what the server refuses. */
  async function walk(clubExternal: number, clubId: number | null, p: (typeof PROFILES)[number]) {
    const user = await makeUser(ctx, clubId, { permissions: p.permissions, isAdmin: p.isAdmin, level: p.level });
    const api = new Api(ctx.app);
    const login = await api.login(user.username, TEST_PASSWORD, clubExternal);
    expect(login.statusCode, login.body).toBe(200);
    // What the console reads after sign-in (platform/auth/sessionData.ts) and gives its useCan().
    // The console sends the chosen club with every call (platform/api/apiClient.ts); the operator needs it.
    const header = { clubExternalId: String(clubExternal) };
    const me = (await api.request('GET', '/api/Account/GetCurrent', undefined, header)).json<CurrentUser>();
    const club = (await api.request('GET', '/api/Club/GetCurrent', undefined, header)).json<Club>();
    const capsRes = await api.request('GET', '/api/Club/GetCapacities', undefined, header);
    expect(capsRes.statusCode, capsRes.body).toBe(200);
    const caps = capsRes.json<Capacity[]>();
    const access = {
      permissions: me,
      role: me.role,
      level: me.level,
      club: { externalClubId: club.externalClubId, settings: club, capacities: caps.map((c) => c.capacity) },
    };
    const problems: string[] = [];
    for (const entry of NAV_ENTRIES) {
      const calls = SCREEN_CALLS[entry.key];
      expect(calls, `no screen calls for ${entry.key}`).toBeDefined();
      const refused: string[] = [];
      for (const c of calls) {
        const res = await api.request(c.method, c.url, c.body, header);
        if (res.statusCode === 403) refused.push(`${c.method} ${c.url}`);
      }
      const rule = NAV_RULES[entry.key]({ ...access.club, permissions: me, level: me.level });
      const shown = can(access, { open: entry.key });
      const expected = rule && refused.length === 0;
      if (shown !== expected) {
        problems.push(
          `${p.name}: ${entry.key} ${shown ? 'shown' : 'hidden'}; rule ${rule ? 'allows' : 'refuses'}${refused.length ? `; 403: ${refused.join(', ')}` : ''}`,
        );
      }
    }
    return problems;
  }

  // In a regular club: nobody, each flag alone, a cashier, a bookkeeper, a scheduler and an admin.
  for (const p of PROFILES) {
    it(`in a regular club: ${p.name}`, async () => {
      regular ??= await makeClub(ctx, { settings: REVEALING, capacities: [{ name: 'בריכה', capacity: 10 }] });
      expect(await walk(regular.externalClubId, regular.id, p)).toEqual([]);
    });
  }

  it('in a Kala club (number 7000 and up), for a cashier and an admin', async () => {
    const club = await makeClub(ctx, { externalClubId: KALA_CLUB_FROM + 3, settings: REVEALING });
    const problems: string[] = [];
    for (const p of PROFILES.filter((x) => x.name.startsWith('cashier') || x.isAdmin)) {
      problems.push(...(await walk(club.externalClubId, club.id, p)));
    }
    expect(problems).toEqual([]);
  });

  it('for the service operator', async () => {
    const club = await makeClub(ctx, { settings: REVEALING });
    const problems = await walk(club.externalClubId, null, {
      name: 'operator',
      permissions: {},
      isAdmin: true,
      level: UserLevel.SuperUser,
    });
    expect(problems).toEqual([]);
  });
});
