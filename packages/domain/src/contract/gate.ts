import {
  BiometricDeleted,
  BonusEntries,
  BonusEntriesInput,
  FaceImages,
  TerminalMessageInput,
  TerminalMessagePatch,
  TerminalMessageRecord,
} from '../gate.js';
import { pageOf } from '../schemas/common.js';
import { IdParams, routes } from './route.js';

/** Bonus entrances of a client (docs/api-gate.md "Bonus entrances"). */
export const bonus = routes(['clients'], {
  add: {
    method: 'POST',
    path: '/api/Client/AddBonusEntries/:id',
    params: IdParams,
    body: BonusEntriesInput,
    response: BonusEntries,
    access: { permission: 'roleManageClientMoney' },
  },
});

const editClients = { permission: 'roleEditClients' } as const;

/** Biometric data of the club's clients (seed 000 §7; docs/api-gate.md "Biometrics"). */
export const biometrics = routes(['biometrics'], {
  /** Deletes one fingerprint template (by its id). */
  deleteTemplate: {
    method: 'DELETE',
    path: '/api/DeleteFmd/:id',
    params: IdParams,
    response: BiometricDeleted,
    access: editClients,
  },
  /** Deletes every template and face image of a client (by client id). */
  deleteOfClient: {
    method: 'DELETE',
    path: '/api/Client/DeleteBiometricDataForClient/:id',
    params: IdParams,
    response: BiometricDeleted,
    access: editClients,
  },
  faceImages: {
    method: 'GET',
    path: '/api/Client/GetFaceImages/:id',
    personalData: { kind: 'biometrics', of: 'client' },
    params: IdParams,
    response: FaceImages,
    access: { permission: 'roleViewClientsList' },
  },
});

const viewMessages = { permission: 'roleViewTerminalMessages' } as const;
const editMessages = { permission: 'roleEditTerminalMessages' } as const;

/** Terminal messages of the signed-in club (seed 000 §7 "Terminal messages"; docs/api-gate.md). */
export const terminalMessages = routes(['terminal messages'], {
  list: { method: 'GET', path: '/api/TerminalMessage', response: pageOf(TerminalMessageRecord), access: viewMessages },
  get: {
    method: 'GET',
    path: '/api/TerminalMessage/:id',
    params: IdParams,
    response: TerminalMessageRecord,
    access: viewMessages,
  },
  create: {
    method: 'POST',
    path: '/api/TerminalMessage',
    body: TerminalMessageInput,
    response: TerminalMessageRecord,
    access: editMessages,
  },
  update: {
    method: 'PATCH',
    path: '/api/TerminalMessage/:id',
    params: IdParams,
    body: TerminalMessagePatch,
    response: TerminalMessageRecord,
    access: editMessages,
  },
});
