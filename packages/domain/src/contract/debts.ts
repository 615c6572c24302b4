import { z } from 'zod';
import { Debt, DebtInput, DebtPatch } from '../schemas/debts.js';
import { IdParams, routes } from './route.js';

const edit = { permission: 'roleManageClientMoney' } as const;

/** Debts of clients (seed 000 §7 "Debts"); amounts in agorot. */
export const debts = routes(['debts'], {
  ofClient: {
    method: 'GET',
    path: '/api/Debts/GetByClientId/:id',
    personalData: { kind: 'money', of: 'client' },
    params: IdParams,
    response: z.array(Debt),
    access: { permission: 'roleViewClientsList' },
  },
  create: { method: 'POST', path: '/api/Debts', body: DebtInput, response: Debt, access: edit },
  update: { method: 'PATCH', path: '/api/Debts/:id', params: IdParams, body: DebtPatch, response: Debt, access: edit },
  /** Marks the debt deleted and answers it. */
  remove: { method: 'PATCH', path: '/api/Debts/Delete/:id', params: IdParams, response: Debt, access: edit },
});
