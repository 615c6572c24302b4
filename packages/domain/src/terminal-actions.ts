// The terminal's remote actions, apart from terminal.ts (zod schemas) so that
// access.ts, and with it the console's navigation on the sign-in page, stays
// free of zod (docs/operations.md "Console files").

/** Actions the console sends to a terminal (DESIGN §8; seed 001 §2 "remote control"). */
export const TERMINAL_ACTIONS = [
  'openGate',
  'reboot',
  'reloadDisplay',
  'checkForUpdates',
  'setDoorState',
  'ping',
  'cashStatusPrint',
] as const;
export type TerminalActionName = (typeof TERMINAL_ACTIONS)[number];
/** Actions only a technician (user role TECHNICIAN) or an admin may send (seed 000 §6, seed 001 §6). */
export const TECHNICIAN_ACTIONS: readonly TerminalActionName[] = ['reloadDisplay', 'checkForUpdates'];
