import { z } from 'zod';
import { ClubPatch } from '../schemas/club.js';
import {
  ClubBilling,
  ClubCharge,
  ClubChargeListQuery,
  OperatorTerminal,
  OperatorTerminalQuery,
  StartChargeClubInput,
} from '../schemas/operator-billing.js';
import { IdParams, routes } from './route.js';

const operator = { operator: true } as const;

/**
 * Settings of a club only the operator changes (seed 001 §3 "Some settings
 * can be changed only by contacting the manager"; club.ts
 * OPERATOR_ONLY_SETTINGS): the yearly license price, the currency and the
 * kala subscription switch and quantity. The license pool changes only by a
 * load (a ledger row), never here.
 */
export const OperatorClubSettingsPatch = ClubPatch.pick({
  licenseYearlyPrice: true,
  currency: true,
  isKalaSubscriptionEnabled: true,
  subscriptionTvilotKalaQty: true,
}).strict();
export type OperatorClubSettingsPatch = z.infer<typeof OperatorClubSettingsPatch>;

/** The operator-only settings of a club as stored (defaults applied). */
export const OperatorClubSettings = z.object({
  licenseYearlyPrice: z.number().int(),
  currency: z.number().int(),
  isKalaSubscriptionEnabled: z.boolean(),
  subscriptionTvilotKalaQty: z.number().int(),
  licancesAmount: z.number().int(),
});
export type OperatorClubSettings = z.infer<typeof OperatorClubSettings>;

/**
 * The operator's charges of clubs (after seed 000 §7 `POST /Club/StartChargeClub`),
 * the terminal fleet and the operator-only settings (issue 17;
 * docs/operator.md). Operator only, but for the club's own billing view.
 */
export const operatorBilling = routes(['operator'], {
  /**
   * Charges a club's stored card for its licenses of a year, once per club and
   * year (a new attempt only after a failed one). 404 for an unknown club. The
   * seed's `POST /Club/StartChargeClub` is the club's own charging run
   * (contract.accounting.chargeClub); this is the operator's, named after it
   * (docs/operator.md "Charging clubs").
   */
  startCharge: {
    method: 'POST',
    path: '/api/Operator/Club/:id/StartChargeClub',
    params: IdParams,
    body: StartChargeClubInput,
    response: ClubCharge,
    access: operator,
  },
  charges: {
    method: 'GET',
    path: '/api/Operator/ClubCharge',
    query: ClubChargeListQuery,
    response: z.array(ClubCharge),
    access: operator,
  },
  fleet: {
    method: 'GET',
    path: '/api/Operator/Terminal',
    query: OperatorTerminalQuery,
    response: z.array(OperatorTerminal),
    access: operator,
  },
  settings: {
    method: 'GET',
    path: '/api/Operator/Club/:id/Settings',
    params: IdParams,
    response: OperatorClubSettings,
    access: operator,
  },
  updateSettings: {
    method: 'PATCH',
    path: '/api/Operator/Club/:id/Settings',
    params: IdParams,
    body: OperatorClubSettingsPatch,
    response: OperatorClubSettings,
    access: operator,
  },
  /** The signed-in club's stored card and the operator's charges of it (its licenses page). */
  clubBilling: {
    method: 'GET',
    path: '/api/License/Charges',
    response: ClubBilling,
    access: { permission: 'roleViewGeneralSettings' },
    tags: ['licenses'],
  },
});
