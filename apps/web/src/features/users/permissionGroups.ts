import type { PermissionFlag } from '@venue/domain';

/**
 * The per-user permission editor of seed 001 §6, grouped and ordered as the
 * seed lists them. `roleIsAdmin` is the separate admin flag of the user form.
 */
export const PERMISSION_GROUPS: { key: string; flags: PermissionFlag[] }[] = [
  { key: 'dashboard', flags: ['roleViewDashboard'] },
  { key: 'clients', flags: ['roleViewClientsList', 'roleEditClients'] },
  { key: 'clientMoney', flags: ['roleManageClientMoney'] },
  // The front desk (issue 35, docs/front-desk.md "Permissions").
  { key: 'frontDesk', flags: ['roleCheckInClients', 'roleOverrideEntrance'] },
  // Privacy (issue 39, docs/privacy.md "Who looked").
  { key: 'privacy', flags: ['roleSecurityOfficer'] },
  { key: 'groups', flags: ['roleViewClientGroupList', 'roleEditClientGroups'] },
  { key: 'terminals', flags: ['roleViewTerminals', 'roleEditTerminals'] },
  { key: 'terminalMessages', flags: ['roleViewTerminalMessages', 'roleEditTerminalMessages'] },
  { key: 'settings', flags: ['roleViewGeneralSettings', 'roleEditGeneralSettings'] },
  {
    key: 'reports',
    flags: [
      'rolePaymentesReport',
      'roleEntrancesReport',
      'roleEntrancesPaymentsReport',
      'rolePurchasesReport',
      'roleCashReport',
      'roleFinanicalReport',
      'roleDebtsReport',
      'roleProductsReport',
      'roleResetCashLevelsReport',
      'roleAutoOperationsReport',
    ],
  },
  { key: 'attendance', flags: ['roleViewAttendanceLogs', 'roleManageAttendance'] },
  { key: 'employeePositions', flags: ['roleEditEmployeePositions'] },
  { key: 'calendar', flags: ['roleViewCalendar'] },
];

/** Every flag the editor sets (all but the admin flag). */
export const EDITABLE_FLAGS: PermissionFlag[] = PERMISSION_GROUPS.flatMap((g) => g.flags);

/** 0–4 strength of a password for the hint; the rules themselves are the server's (UserPassword). */
export function passwordStrength(p: string): number {
  if (!p) return 0;
  let s = 0;
  if (p.length >= 8) s += 1;
  if (/\p{L}/u.test(p) && /\d/.test(p)) s += 1;
  if (/[^\p{L}\p{N}]/u.test(p) || (/\p{Lu}/u.test(p) && /\p{Ll}/u.test(p))) s += 1;
  if (p.length >= 12) s += 1;
  return s;
}
