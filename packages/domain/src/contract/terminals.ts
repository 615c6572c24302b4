import { z } from 'zod';
import { OkResponse, pageOf } from '../schemas/common.js';
import { Terminal, TerminalCreated, TerminalInput, TerminalPatch } from '../schemas/terminals.js';
import {
  CashBoxStatus,
  CashReset,
  ConnectedDevices,
  Inventory,
  ResetCashLevelsInput,
  TerminalActionInput,
  TerminalActionReplyResult,
  TerminalActionResult,
  TerminalActionWithReplyInput,
} from '../terminal.js';
import { TerminalScreenView } from '../screen-protocol.js';
import { IdParams, routes } from './route.js';

const edit = { permission: 'roleEditTerminals' } as const;

/** Query of GET /api/Terminal: `deleted=true` lists the deleted terminals instead. */
export const TerminalListQuery = z.object({ deleted: z.union([z.boolean(), z.stringbool()]).optional() });
/** Coins and bills put into a terminal's cash box, count per denomination in agorot. */
export const LoadCashInput = z.strictObject({ coins: Inventory.default({}), bills: Inventory.default({}) });

/**
 * Entrance terminals of the signed-in club, management side (seed 000 §7
 * "Terminals", DESIGN §8). Reading needs only a sign-in: the console shows
 * terminals on several screens.
 */
export const terminals = routes(['terminals'], {
  list: { method: 'GET', path: '/api/Terminal', query: TerminalListQuery, response: pageOf(Terminal), access: {} },
  get: { method: 'GET', path: '/api/Terminal/:id', params: IdParams, response: Terminal, access: {} },
  /** Answers the terminal's secret once. */
  create: { method: 'POST', path: '/api/Terminal', body: TerminalInput, response: TerminalCreated, access: edit },
  update: {
    method: 'PATCH',
    path: '/api/Terminal/:id',
    params: IdParams,
    body: TerminalPatch,
    response: Terminal,
    access: edit,
  },
  remove: { method: 'DELETE', path: '/api/Terminal/:id', params: IdParams, response: OkResponse, access: edit },
  restore: { method: 'PATCH', path: '/api/Terminal/Restore/:id', params: IdParams, response: Terminal, access: edit },
  connectedDevices: {
    method: 'GET',
    path: '/api/Terminal/GetConnectedDevices/:id',
    params: IdParams,
    response: ConnectedDevices,
    access: {},
  },
  /** Remote view: the latest screen the terminal reported (docs/terminal-protocol.md "Remote view"). */
  screen: {
    method: 'GET',
    path: '/api/Terminal/GetScreen/:id',
    params: IdParams,
    response: TerminalScreenView,
    access: edit,
  },
  cashBox: {
    method: 'GET',
    path: '/api/Terminal/GetCashBoxStatus/:id',
    params: IdParams,
    response: CashBoxStatus,
    access: {},
  },
  resetCash: {
    method: 'POST',
    path: '/api/Terminal/CreateResetCashLevels',
    body: ResetCashLevelsInput,
    response: CashReset,
    access: edit,
  },
  loadCash: {
    method: 'POST',
    path: '/api/Terminal/LoadCash/:id',
    params: IdParams,
    body: LoadCashInput,
    response: CashBoxStatus,
    access: edit,
  },
  action: {
    method: 'POST',
    path: '/api/Terminal/TerminalAction',
    body: TerminalActionInput,
    response: TerminalActionResult,
    access: edit,
  },
  /** TerminalAction with `actionName` defaulting to `ping`. */
  ping: {
    method: 'POST',
    path: '/api/Terminal/TerminalPing',
    body: TerminalActionInput,
    response: TerminalActionResult,
    access: edit,
  },
  actionWithReply: {
    method: 'POST',
    path: '/api/Terminal/TerminalActionWithReply',
    body: TerminalActionWithReplyInput,
    response: TerminalActionReplyResult,
    access: edit,
  },
});
