import { describe, expect, it } from 'vitest';
import { visibleNavigation, NAV_ENTRIES, type NavContext } from './navigation.js';
import { allPermissions, type PermissionFlag } from './permissions.js';
import { UserLevel } from './enums.js';

/**
 * Navigation visibility, row by row against the table of seed 000 §6.
 * Club classes: below 4000 (regular), 4000–6999 (USA, still regular class),
 * 7000+ (kala class).
 */
const noSettings: NavContext['settings'] = {
  isKalaSubscriptionEnabled: false,
  isEmployeeAttendanceEnabled: false,
  isIncidentReportEnabled: false,
  isUpsellEnabled: false,
  isSaferPaymentsEnabled: false,
  isQuickExitEnabled: false,
};

function ctx(over: Partial<NavContext> & { flags?: PermissionFlag[] } = {}): NavContext {
  const permissions = allPermissions(false);
  for (const f of over.flags ?? []) permissions[f] = true;
  return {
    permissions,
    externalClubId: over.externalClubId ?? 1001,
    settings: { ...noSettings, ...over.settings },
    capacities: over.capacities ?? [],
  };
}
const keys = (c: NavContext) => visibleNavigation(c).map((e) => e.key);

describe('visibleNavigation (seed 000 §6)', () => {
  it('shows only the unconditional entries to a user with no flags in a regular club', () => {
    expect(keys(ctx())).toEqual([
      'occupancy',
      'products',
      'terminals',
      'schedules',
      'licensesUsedReport',
      'loadedLicensesReport',
    ]);
  });

  it('hides the regular-class-only entries in a kala club (7000+)', () => {
    expect(keys(ctx({ externalClubId: 7000 }))).toEqual(['occupancy', 'products', 'terminals']);
  });

  it('shows gate safety to who may open all gates or lock them down (issue 36)', () => {
    const p = (...flags: PermissionFlag[]) => keys(ctx({ flags })).includes('gateSafety');
    expect(p('roleEmergencyOpenAll')).toBe(true);
    expect(p('roleLockdown')).toBe(true);
    expect(p('roleEditTerminals', 'roleViewDashboard')).toBe(false);
  });

  it('shows the front desk to who may find clients and check them in or sell to them (issue 35)', () => {
    const p = (...flags: PermissionFlag[]) => keys(ctx({ flags })).includes('frontDesk');
    expect(p('roleViewClientsList', 'roleCheckInClients')).toBe(true);
    expect(p('roleViewClientsList', 'roleManageClientMoney')).toBe(true);
    expect(p('roleViewClientsList')).toBe(false);
    expect(p('roleCheckInClients', 'roleManageClientMoney')).toBe(false);
  });

  // [entry, flag needed, shown in kala club without kala subscription, shown in kala club with it]
  const flagRows: [string, PermissionFlag, boolean, boolean][] = [
    ['dashboard', 'roleViewDashboard', true, true],
    ['clients', 'roleViewClientsList', true, true],
    ['groups', 'roleViewClientGroupList', false, true],
    ['settings', 'roleViewGeneralSettings', true, true],
    ['users', 'roleIsAdmin', true, true],
    ['terminalMessages', 'roleViewTerminalMessages', false, false],
    ['paymentReport', 'rolePaymentesReport', true, true],
    ['entranceReport', 'roleEntrancesReport', false, true],
    ['activitiesReport', 'roleEntrancesPaymentsReport', false, false],
    ['purchasesReport', 'rolePurchasesReport', true, true],
    ['financialReport', 'roleFinanicalReport', true, true],
    ['productsReport', 'roleProductsReport', true, true],
    ['cashManagementReport', 'roleResetCashLevelsReport', true, true],
    ['cashTransactionsReport', 'roleCashReport', true, true],
    ['debtsReport', 'roleDebtsReport', true, true],
    ['autoRenewalReport', 'roleAutoOperationsReport', false, false],
  ];
  for (const [entry, flag, kala, kalaWithSub] of flagRows) {
    it(`${entry}: needs ${flag}; kala club ${kala ? 'shows' : 'hides'} it, with kala subscription ${kalaWithSub ? 'shows' : 'hides'} it`, () => {
      expect(keys(ctx())).not.toContain(entry);
      for (const id of [1, 3999, 4000, 6999]) expect(keys(ctx({ flags: [flag], externalClubId: id }))).toContain(entry);
      expect(keys(ctx({ flags: [flag], externalClubId: 7000 })).includes(entry)).toBe(kala);
      expect(
        keys(
          ctx({ flags: [flag], externalClubId: 9000, settings: { ...noSettings, isKalaSubscriptionEnabled: true } }),
        ).includes(entry),
      ).toBe(kalaWithSub);
    });
  }

  it('attendance and employee positions need isEmployeeAttendanceEnabled and roleViewAttendanceLogs', () => {
    const on = { ...noSettings, isEmployeeAttendanceEnabled: true };
    expect(keys(ctx({ settings: on }))).not.toContain('attendance');
    expect(keys(ctx({ flags: ['roleViewAttendanceLogs'] }))).not.toContain('attendance');
    const both = keys(ctx({ flags: ['roleViewAttendanceLogs'], settings: on }));
    expect(both).toContain('attendance');
    expect(both).toContain('employeePositions');
  });

  it('feedback categories follow isIncidentReportEnabled', () => {
    expect(keys(ctx({ settings: { ...noSettings, isIncidentReportEnabled: true } }))).toContain('feedbackCategories');
  });

  it('product matrix needs roleProductsReport and isUpsellEnabled', () => {
    expect(keys(ctx({ flags: ['roleProductsReport'] }))).not.toContain('productMatrixReport');
    expect(keys(ctx({ settings: { ...noSettings, isUpsellEnabled: true } }))).not.toContain('productMatrixReport');
    expect(keys(ctx({ flags: ['roleProductsReport'], settings: { ...noSettings, isUpsellEnabled: true } }))).toContain(
      'productMatrixReport',
    );
  });

  it('safer payments and quick exit follow their club settings', () => {
    const safer = { ...noSettings, isSaferPaymentsEnabled: true };
    expect(keys(ctx({ settings: safer, flags: ['rolePaymentesReport'] }))).toContain('saferPaymentsReport');
    // The report shows card charges: the payments-report flag too (docs/reports.md), so no entry answers 403.
    expect(keys(ctx({ settings: safer }))).not.toContain('saferPaymentsReport');
    expect(keys(ctx({ flags: ['rolePaymentesReport'] }))).not.toContain('saferPaymentsReport');
    expect(keys(ctx({ settings: { ...noSettings, isQuickExitEnabled: true } }))).toContain('quickExitReport');
    expect(keys(ctx())).not.toContain('quickExitReport');
  });

  it('add-licenses requests: regular class and roleViewGeneralSettings (our rule)', () => {
    expect(keys(ctx({ flags: ['roleViewGeneralSettings'] }))).toContain('addLicensesRequestsReport');
    expect(keys(ctx())).not.toContain('addLicensesRequestsReport');
    expect(keys(ctx({ flags: ['roleViewGeneralSettings'], externalClubId: 7000 }))).not.toContain(
      'addLicensesRequestsReport',
    );
  });

  it('excess status appears when any club capacity is above 0', () => {
    expect(keys(ctx({ capacities: [0, 0] }))).not.toContain('excessStatusReport');
    expect(keys(ctx({ capacities: [0, 3] }))).toContain('excessStatusReport');
  });

  it('an admin with every flag in a regular club sees every entry whose settings allow it', () => {
    const all = keys({
      permissions: allPermissions(true),
      externalClubId: 1001,
      settings: {
        isKalaSubscriptionEnabled: true,
        isEmployeeAttendanceEnabled: true,
        isIncidentReportEnabled: true,
        isUpsellEnabled: true,
        isSaferPaymentsEnabled: true,
        isQuickExitEnabled: true,
      },
      capacities: [1],
    });
    // The operator's area is the service operator's alone (docs/operator.md).
    expect(all).toEqual(NAV_ENTRIES.filter((e) => e.section !== 'operator').map((e) => e.key));
  });

  it('shows the operator section to user level SuperUser only (docs/operator.md)', () => {
    const ctx = {
      permissions: allPermissions(true),
      externalClubId: 1001,
      settings: {
        isKalaSubscriptionEnabled: false,
        isEmployeeAttendanceEnabled: false,
        isIncidentReportEnabled: false,
        isUpsellEnabled: false,
        isSaferPaymentsEnabled: false,
        isQuickExitEnabled: false,
      },
      capacities: [],
    };
    expect(keys(ctx)).not.toContain('operatorClubs');
    expect(keys({ ...ctx, level: UserLevel.Regular })).not.toContain('operatorClubs');
    expect(keys({ ...ctx, level: UserLevel.SuperUser })).toContain('operatorClubs');
  });
});
