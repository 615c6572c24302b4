import { describe, expect, it } from 'vitest';
import { can, EDIT_FLAGS, type AccessContext } from './access.js';
import { UserLevel, UserRole } from './enums.js';
import { allPermissions, type PermissionFlag } from './permissions.js';

const club: NonNullable<AccessContext['club']> = {
  externalClubId: 1001,
  settings: {
    isKalaSubscriptionEnabled: false,
    isEmployeeAttendanceEnabled: false,
    isIncidentReportEnabled: false,
    isUpsellEnabled: false,
    isSaferPaymentsEnabled: true,
    isQuickExitEnabled: false,
  },
  capacities: [],
};
const only = (...flags: PermissionFlag[]): AccessContext => ({
  permissions: { ...allPermissions(false), ...Object.fromEntries(flags.map((f) => [f, true])) },
  role: UserRole.REGULAR,
  level: UserLevel.Regular,
  club,
});

describe('access policy (seed 000 §6, seed 001 §6)', () => {
  it('lets each area be edited only with its own flag', () => {
    for (const [area, flag] of Object.entries(EDIT_FLAGS)) {
      expect(can(only(flag), { edit: area as keyof typeof EDIT_FLAGS })).toBe(true);
      expect(can(only(), { edit: area as keyof typeof EDIT_FLAGS })).toBe(false);
    }
    expect(can(only('roleEditClients'), { edit: 'clientMoney' })).toBe(false);
  });

  it('keeps check-for-updates and reload-display to technicians, admins and the operator', () => {
    const editor = only('roleEditTerminals');
    expect(can(editor, { terminalAction: 'openGate' })).toBe(true);
    expect(can(editor, { terminalAction: 'checkForUpdates' })).toBe(false);
    expect(can(editor, { terminalAction: 'reloadDisplay' })).toBe(false);
    expect(can({ ...editor, role: UserRole.TECHNICIAN }, { terminalAction: 'reloadDisplay' })).toBe(true);
    expect(can(only('roleEditTerminals', 'roleIsAdmin'), { terminalAction: 'checkForUpdates' })).toBe(true);
    expect(can({ ...editor, level: UserLevel.SuperUser }, { terminalAction: 'checkForUpdates' })).toBe(true);
    // A technician without the edit flag sends nothing.
    expect(can({ ...only(), role: UserRole.TECHNICIAN }, { terminalAction: 'openGate' })).toBe(false);
  });

  it('sends entrance rows of the live feed only to those who may open the dashboard or the entrance report', () => {
    expect(can(only(), { live: 'entrance' })).toBe(false);
    expect(can(only(), { live: 'door' })).toBe(true);
    expect(can(only('roleViewDashboard'), { live: 'entrance' })).toBe(true);
    expect(can(only('roleEntrancesReport'), { live: 'entrance' })).toBe(true);
    // Kala class without kala subscription: the entrance report is hidden.
    const kala = { ...only('roleEntrancesReport'), club: { ...club, externalClubId: 7001 } };
    expect(can(kala, { live: 'entrance' })).toBe(false);
  });

  it('opens navigation entries by the seed table, and nothing without the club facts', () => {
    expect(can(only(), { open: 'quickExitReport' })).toBe(false);
    expect(
      can(
        { ...only(), club: { ...club, settings: { ...club.settings, isQuickExitEnabled: true } } },
        { open: 'quickExitReport' },
      ),
    ).toBe(true);
    expect(can({ ...only('roleViewDashboard'), club: undefined }, { open: 'dashboard' })).toBe(false);
    expect(can(only(), { operator: true })).toBe(false);
    expect(can({ ...only(), level: UserLevel.SuperUser }, { operator: true })).toBe(true);
  });
});
