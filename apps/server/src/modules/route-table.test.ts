import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_FLAGS, allPermissions, type PermissionFlag } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../test/harness.js';
import type { RouteEntry } from '../lib/route-table.js';
import { eq } from 'drizzle-orm';
import * as factory from '../../test/factories.js';
import { biometricTemplates } from '../db/schema.js';
import { startMemberSession } from '../lib/member-sessions.js';

/**
 * DESIGN §10 and STYLE point 11, from the route table rather than by hand:
 * every /api route that is not public answers 401 without a token, every
 * route that declares a permission answers 403 to a user lacking just that
 * flag, operator routes answer 403 to a club admin, and every `{id}` route of
 * clients, groups, schedules and terminals answers 404 for another club's id.
 */
/** The money areas' {id} routes (docs/money.md). */
const MONEY_ID_ROUTES =
  /^\/api\/(Purchase|getBalance|addCredit|CreditCard|Debts|GetSubscriptions|GetRenewSubscriptionStartAndEndDatesAndPrice|AutoRenew|MasavFile|AddLicensesRequest)\//;

/**
 * Other spellings of one path: a percent-encoded letter in each segment, a
 * doubled or trailing slash, dot segments, an encoded slash and changed case.
 */
function pathVariants(url: string): string[] {
  const segs = url.split('/').slice(1); // ['api', 'Client', '1']
  const enc = (s: string) => s.replace(/[A-Za-z]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const out = new Set<string>();
  segs.forEach((_, i) => out.add('/' + segs.map((s, j) => (j === i ? enc(s) : s)).join('/')));
  out.add('/' + segs.map(enc).join('/'));
  out.add('/' + segs.join('//'));
  out.add('/' + url);
  out.add(url + '/');
  out.add(`/api/x/../${segs.slice(1).join('/')}`);
  out.add(`/api/./${segs.slice(1).join('/')}`);
  out.add(`/api%2F${segs.slice(1).join('/')}`);
  out.add(url.toUpperCase());
  out.add(url.toLowerCase());
  out.delete(url);
  return [...out];
}

describe('route table: 401, 403 and other-club 404 on every route', () => {
  let ctx: TestContext;
  let routes: RouteEntry[];
  beforeAll(async () => {
    ctx = await createTestApp();
    // HEAD twins answer as their GET; WebSocket routes authenticate inside the socket.
    routes = ctx.app.routeTable.filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && !r.websocket);
  });
  afterAll(async () => ctx.close());

  /** A concrete URL for a route pattern: parameters become `value`, wildcards a path segment. */
  const concrete = (url: string, value: number | string = 1) => url.replace(/:\w+/g, String(value)).replace(/\*$/, 'x');
  const label = (r: RouteEntry) => `${r.method} ${r.url}`;
  const call = (api: Api, r: RouteEntry, url = concrete(r.url), body: object = {}) =>
    api.request(r.method, url, r.method === 'GET' ? undefined : body);
  /** A valid body for routes whose body has required fields, so the club check (404) is what answers. */
  const validBody = (url: string): object => {
    if (url.startsWith('/api/Client/AddBonusEntries/')) return { count: 1 };
    // Money routes (docs/money.md): bodies that pass validation, so the club check is what answers.
    if (url.startsWith('/api/addCredit/')) return { amount: 1000, idempotencyKey: 'route-table-credit' };
    if (url.startsWith('/api/AddLicensesRequest/')) return { status: 4 };
    if (url.startsWith('/api/Purchase/Refund/')) return { reason: 'route table', idempotencyKey: 'route-table-refund' };
    if (url.startsWith('/api/EmployeePosition/')) return { name: 'Taken over' };
    if (url.startsWith('/api/Club/UpdateHasavshevetDetails/')) {
      return { cashAccount: '1', creditAccount: '2', incomeAccount: '3', vatAccount: '4' };
    }
    if (url.startsWith('/api/Club/UpdateClubSumitSettings/')) return { companyId: '1' };
    return {};
  };

  it('finds the routes of this slice in the table', () => {
    const names = routes.map(label);
    for (const expected of [
      'GET /api/Client',
      'GET /api/Client/:id',
      'POST /api/Client',
      'PATCH /api/Client/:id',
      'GET /api/Group',
      'POST /api/Group',
      'GET /api/Group/:id',
      'PATCH /api/Group/:id',
      'DELETE /api/Group/:id',
      'GET /api/Schedule/GetByGroupId/:id',
      'GET /api/Terminal',
      'POST /api/Terminal',
      'GET /api/Terminal/:id',
      'PATCH /api/Terminal/:id',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it('answers 401 without a token on every route that is not public', async () => {
    const anon = new Api(ctx.app);
    const wrong: string[] = [];
    for (const r of routes.filter((x) => !x.config.public)) {
      const res = await call(anon, r);
      if (res.statusCode !== 401 || res.json().code !== 'UNAUTHORIZED') wrong.push(`${label(r)} → ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  /**
   * Two session kinds (docs/members.md "Session kind"), tried on every route:
   * a member token (even one with its club chosen) is 401 on every staff
   * route, and a staff token — an admin's, holding every flag — is 401 on
   * every member route.
   */
  it('answers 401 to a member token on every staff route and to a staff token on every member route', async () => {
    const { club, api: staff } = await signedInAdmin(ctx);
    const client = await factory.makeClient(ctx, club.id, { phone: '+972507654321' });
    const member = new Api(ctx.app);
    const ms = await startMemberSession(ctx.database.db, {
      contact: client.phone,
      clubId: club.id,
      clientId: client.id,
      ip: '',
      ttlSeconds: 600,
    });
    member.token = await ctx.app.jwt.sign({ sub: 0, tv: 0, ms });
    expect((await member.get('/api/Member/Me')).statusCode).toBe(200);
    const memberRoutes = routes.filter((r) => r.config.member);
    const staffRoutes = routes.filter((r) => !r.config.member && !r.config.public);
    expect(memberRoutes.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const r of staffRoutes) {
      const res = await call(member, r, concrete(r.url, client.id));
      if (res.statusCode !== 401 || res.json().code !== 'UNAUTHORIZED')
        wrong.push(`member ${label(r)} → ${res.statusCode}`);
    }
    for (const r of memberRoutes) {
      const res = await call(staff, r, concrete(r.url, client.id));
      if (res.statusCode !== 401 || res.json().code !== 'UNAUTHORIZED')
        wrong.push(`staff ${label(r)} → ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it("answers 403 to a user lacking the route's permission (every other flag set), and to a club admin on operator routes", async () => {
    const club = (await signedInAdmin(ctx)).club;
    const callers = new Map<PermissionFlag, Api>();
    const wrong: string[] = [];
    for (const r of routes.filter((x) => x.config.permission && !x.config.public)) {
      const flag = r.config.permission as PermissionFlag;
      if (!callers.has(flag)) {
        const permissions = { ...allPermissions(true), [flag]: false };
        const user = await makeUser(ctx, club.id, { permissions });
        const api = new Api(ctx.app);
        expect((await api.login(user.username, TEST_PASSWORD, club.externalClubId)).statusCode).toBe(200);
        callers.set(flag, api);
      }
      const res = await call(callers.get(flag)!, r);
      if (res.statusCode !== 403 || res.json().code !== 'NOT_AUTHORIZED') wrong.push(`${label(r)} → ${res.statusCode}`);
    }
    const admin = (await signedInAdmin(ctx)).api;
    for (const r of routes.filter((x) => x.config.operator && !x.config.public)) {
      const res = await call(admin, r);
      if (res.statusCode !== 403) wrong.push(`${label(r)} (operator) → ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
    // Every flag a route names is a real flag.
    for (const r of routes) if (r.config.permission) expect(PERMISSION_FLAGS).toContain(r.config.permission);
  });

  /**
   * Seed 000 §6 on the server: a route that declares a navigation entry is
   * refused (403) where the entry is hidden, even to a club admin who holds
   * every flag. Expected from the seed's table by hand, not from the rule.
   */
  const SETTING_OR_CAPACITY_KEYS = [
    'feedbackCategories',
    'incidents',
    'quickExitReport',
    'productMatrixReport',
    'saferPaymentsReport',
    'excessStatusReport',
    'employeePositions',
    'attendance',
    'attendanceReport',
    'stampsReport',
    'payrollReport',
  ];
  const REGULAR_CLASS_KEYS = [
    'entranceReport',
    'activitiesReport',
    'autoRenewalReport',
    'licensesUsedReport',
    'loadedLicensesReport',
    'addLicensesRequestsReport',
  ];
  const allOn = {
    isQuickExitEnabled: true,
    isUpsellEnabled: true,
    isSaferPaymentsEnabled: true,
    isIncidentReportEnabled: true,
    isKalaSubscriptionEnabled: false,
    isEmployeeAttendanceEnabled: true,
  };
  for (const [title, clubOpts, closed] of [
    [
      'setting off or no capacity',
      {
        settings: {
          isQuickExitEnabled: false,
          isUpsellEnabled: false,
          isSaferPaymentsEnabled: false,
          isIncidentReportEnabled: false,
          isEmployeeAttendanceEnabled: false,
        },
        capacities: [],
      },
      SETTING_OR_CAPACITY_KEYS,
    ],
    [
      'club class excluded (kala, without kala subscription)',
      {
        externalClubId: 7000 + Math.floor(Math.random() * 2000),
        settings: allOn,
        capacities: [{ name: 'pool', capacity: 40 }],
      },
      REGULAR_CLASS_KEYS,
    ],
    ['every setting on, regular class', { settings: allOn, capacities: [{ name: 'pool', capacity: 40 }] }, []],
  ] as const) {
    it(`answers 403 to a club admin on every report route whose entry is hidden: ${title}`, async () => {
      const { api } = await signedInAdmin(ctx, { ...clubOpts, capacities: [...clubOpts.capacities] });
      const navRoutes = routes.filter((r) => r.config.nav);
      expect(navRoutes.length).toBeGreaterThan(40);
      const wrong: string[] = [];
      for (const r of navRoutes) {
        const res = await call(api, r);
        const refused = res.statusCode === 403;
        const expected = (closed as readonly string[]).includes(r.config.nav!);
        if (refused !== expected) wrong.push(`${label(r)} [${r.config.nav}] → ${res.statusCode}`);
        expect(res.statusCode).toBeLessThan(500);
      }
      expect(wrong).toEqual([]);
      // Every closed key is declared by at least one route.
      for (const k of closed) expect(navRoutes.some((r) => r.config.nav === k)).toBe(true);
    });
  }

  it('answers 403 CSRF_INVALID without the anti-forgery header on every route other than GET, also through an encoded path', async () => {
    const { api } = await signedInAdmin(ctx);
    const all = ctx.app.routeTable.filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && !r.websocket);
    const wrong: string[] = [];
    for (const r of all.filter((x) => x.config.antiForgery !== false)) {
      for (const url of [
        concrete(r.url),
        concrete(r.url).replace(/^\/(\w)/, (_, c: string) => `/%${c.charCodeAt(0).toString(16)}`),
      ]) {
        const res = await ctx.app.inject({
          method: r.method as 'POST',
          url,
          payload: {},
          headers: { authorization: `Bearer ${api.token}` },
        });
        if (res.statusCode !== 403 || res.json().code !== 'CSRF_INVALID')
          wrong.push(`${r.method} ${url} → ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
    // The one exemption is a provider page posted by its own form, outside /api.
    // and the member app's provider callback and hosted page (docs/members.md), which act on no session.
    expect(
      all
        .filter((x) => x.config.antiForgery === false)
        .map(label)
        .sort(),
    ).toEqual(['POST /api/Member/PaymentCallback', 'POST /sandbox/hosted/pay', 'POST /sandbox/pay/:code']);
  });

  it('reaches the same checks through every spelling of a path (encoded, doubled or trailing slash, dot segment, case)', async () => {
    // docs/security.md "Routing": the router decodes the path, so the checks read
    // the matched route, never the raw URL. Each variant either reaches the
    // route (and is refused like the plain path) or reaches no route (404).
    const anon = new Api(ctx.app);
    const club = (await signedInAdmin(ctx)).club;
    const noFlags = await makeUser(ctx, club.id, { permissions: allPermissions(false) });
    const plain = new Api(ctx.app);
    expect((await plain.login(noFlags.username, TEST_PASSWORD, club.externalClubId)).statusCode).toBe(200);
    const wrong: string[] = [];
    const protectedRoutes = routes.filter((x) => !x.config.public);
    for (const r of protectedRoutes) {
      const url = concrete(r.url);
      for (const v of pathVariants(url)) {
        const res = await call(anon, r, v);
        if (res.statusCode !== 401 && res.statusCode !== 404)
          wrong.push(`anonymous ${r.method} ${v} → ${res.statusCode}`);
        if (r.config.permission || r.config.operator) {
          const p = await call(plain, r, v);
          if (p.statusCode !== 403 && p.statusCode !== 404) wrong.push(`no flags ${r.method} ${v} → ${p.statusCode}`);
        }
      }
    }
    // The probe's examples, by name.
    for (const v of ['/%61pi/Client/ImportSample', '/%61pi/Report/MoveinPrm', '/%61pi/Reference/Cities']) {
      expect((await anon.get(v)).statusCode).toBe(401);
    }
    expect(wrong).toEqual([]);
  });

  it("answers 404 to club A for club B's id on every {id} route of clients, groups, schedules and terminals", async () => {
    // Incident reports and attendance on in both clubs, so the feedback category and positions routes are open to both.
    const settings = { isIncidentReportEnabled: true, isEmployeeAttendanceEnabled: true };
    const a = await signedInAdmin(ctx, { settings });
    const b = await signedInAdmin(ctx, { settings });
    const group = (
      await b.api.post('/api/Group', {
        name: 'B group',
        schedule: [{ days: [1], fromTime: 60, toTime: 120, entranceState: 2 }],
      })
    ).json();
    const client = (await b.api.post('/api/Client', { firstName: 'B client', groupId: group.id })).json();
    const position = await factory.makeEmployeePosition(ctx, b.club.id, { name: 'B position' });
    const terminal = (await b.api.post('/api/Terminal', { serial: `B-${b.club.id}`, name: 'B gate' })).json();
    const general = (
      await b.api.post('/api/Schedule', { days: [0], fromTime: 60, toTime: 120, entranceState: 2 })
    ).json();
    const link = (await b.api.post('/api/ScheduleToGroup', { scheduleId: general.id, groupId: group.id })).json();
    const product = (await b.api.post('/api/Product', { name: 'B towel', price: 500 })).json();
    const message = (await b.api.post('/api/TerminalMessage', { name: 'B message' })).json();
    const category = await factory.makeFeedbackCategory(ctx, b.club.id);
    const incident = (await b.api.post('/api/Incident', { categoryId: category.id })).json();
    // Templates come only from terminals (enrolment); one of B's client's, written directly.
    const template = await factory.makeBiometricTemplate(
      ctx,
      { id: client.id, clubId: b.club.id },
      { templateEnc: 'v1.x.y.z', templateMac: 'm' },
    );
    // Money resources of B (docs/money.md).
    const purchase = (
      await b.api.post('/api/Client/AdminPurchase', {
        clientId: client.id,
        purchaseItems: [{ itemType: 2, unitPrice: 1000 }],
        payments: [{ method: 0, amount: 1000 }],
        idempotencyKey: `route-table-${b.club.id}`,
      })
    ).json();
    const debt = (await b.api.post('/api/Debts', { clientId: client.id, amount: 500 })).json();
    const payer = (await b.api.post('/api/Client', { firstName: 'B payer' })).json();
    const bankAuth = (
      await b.api.post('/api/CreditCard', {
        kind: 'masav',
        clientId: payer.id,
        bankCode: '12',
        branch: '571',
        account: '041116',
        ownerId: '000000018',
        ownerName: 'B payer',
      })
    ).json();
    await b.api.post('/api/Debts', { clientId: payer.id, amount: 700 });
    await b.api.request('PUT', '/api/MasavFile/Settings', {
      institutionCode: '12345678',
      sendingInstitution: '12345',
      institutionName: 'B',
    });
    const masavFile = (await b.api.post('/api/MasavFile?testMode=true')).json();
    const licenseRequest = await factory.makeLicenseRequest(ctx, b.club.id, {
      quantity: 40,
      price: 3000,
      amount: 120000,
      reference: '1',
    });
    // A's own resources exist too, so a route that ignored the club would find something.
    await a.api.post('/api/Product', { name: 'A towel', price: 500 });
    await a.api.post('/api/Group', { name: 'A group' });
    await a.api.post('/api/Client', { firstName: 'A client' });

    const idFor = (url: string): number | undefined => {
      if (url.startsWith('/api/Purchase/GetByClientId/')) return client.id;
      if (url.startsWith('/api/Purchase/')) return purchase.id;
      if (url.startsWith('/api/CreditCard/GetByClientId/')) return payer.id;
      if (url.startsWith('/api/CreditCard/')) return bankAuth.id;
      if (url.startsWith('/api/Debts/GetByClientId/')) return client.id;
      if (url.startsWith('/api/Debts/')) return debt.id;
      if (url.startsWith('/api/MasavFile/')) return masavFile.id;
      if (url.startsWith('/api/AddLicensesRequest/')) return licenseRequest.id;
      if (
        /^\/api\/(getBalance|addCredit|GetSubscriptions|GetRenewSubscriptionStartAndEndDatesAndPrice|AutoRenew)\//.test(
          url,
        )
      ) {
        return client.id;
      }
      if (url.startsWith('/api/Schedule/GetByGroupId/')) return group.id;
      if (url.startsWith('/api/ScheduleToGroup/')) return link.id;
      if (url.startsWith('/api/Product/')) return product.id;
      if (url.startsWith('/api/EmployeePosition/')) return position.id;
      if (url.startsWith('/api/TerminalMessage/')) return message.id;
      if (url.startsWith('/api/FeedbackCategory/')) return category.id;
      if (url.startsWith('/api/Incident/')) return incident.id;
      if (url.startsWith('/api/DeleteFmd/')) return template.id;
      if (url.startsWith('/api/User/')) return b.user.id;
      if (url.startsWith('/api/Club/')) return b.club.id;
      if (url.startsWith('/api/GetClientFull/')) return client.id;
      if (url.startsWith('/api/Schedule/')) return group.schedule[0].id;
      if (url.startsWith('/api/Client/')) return client.id;
      if (url.startsWith('/api/Group/')) return group.id;
      if (url.startsWith('/api/Terminal/')) return terminal.id;
      return undefined;
    };
    const snapshot = async () => ({
      client: (await b.api.get(`/api/Client/${client.id}`)).json(),
      group: (await b.api.get(`/api/Group/${group.id}`)).json(),
      terminal: (await b.api.get(`/api/Terminal/${terminal.id}`)).json(),
      message: (await b.api.get(`/api/TerminalMessage/${message.id}`)).json(),
      position: (await b.api.get(`/api/EmployeePosition/${position.id}`)).json(),
      templates: await ctx.database.db
        .select()
        .from(biometricTemplates)
        .where(eq(biometricTemplates.clubId, b.club.id)),
    });
    const before = await snapshot();

    const scoped = routes.filter(
      (r) =>
        (/^\/api\/(Client|Group|Schedule|ScheduleToGroup|Terminal|TerminalMessage|FeedbackCategory|Incident|DeleteFmd|Product|EmployeePosition|User|Club|GetClientFull)\//.test(
          r.url,
        ) ||
          MONEY_ID_ROUTES.test(r.url)) &&
        r.url.includes(':id'),
    );
    expect(scoped.length).toBeGreaterThanOrEqual(8);
    const wrong: string[] = [];
    for (const r of scoped) {
      const id = idFor(r.url);
      if (id === undefined) {
        wrong.push(`${label(r)}: no id of club B known for this route`);
        continue;
      }
      const res = await call(a.api, r, concrete(r.url, id), validBody(r.url));
      if (res.statusCode !== 404 || res.json().code !== 'NOT_FOUND') wrong.push(`${label(r)} → ${res.statusCode}`);
      // The same call by B itself must not be a 404, or the check above proves nothing.
      if (r.method === 'GET' && (await call(b.api, r, concrete(r.url, id))).statusCode !== 200) {
        wrong.push(`${label(r)}: club B cannot read its own id`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});
