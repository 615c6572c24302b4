import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  contract,
  type ErrorCode,
  type LicenseLoadInput,
  type LicenseRequestDecision,
  type OperatorClubInput,
  type OperatorClubListQuery,
  type OperatorClubSettingsPatch,
  type StartChargeClubInput,
} from '@venue/domain';
import { api, ApiError } from '../../platform/api/apiClient';
import { readSession } from '../../platform/auth/authStorage';

/** Query key of the operator's club list (every filter below it). */
const CLUBS_KEY = ['operatorClubs'] as const;

/** GET /Operator/Club with the filter (docs/operator.md). */
export function useOperatorClubs(filter: OperatorClubListQuery) {
  return useQuery({
    queryKey: [...CLUBS_KEY, filter],
    queryFn: () => api.call(contract.operatorClubs.list, { query: filter }),
  });
}

/** POST /Operator/Club: the new club and its admin's one-time password. */
export function useCreateClub() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: OperatorClubInput) => api.call(contract.operatorClubs.create, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: CLUBS_KEY }),
  });
}

/** POST /Operator/Club/{id}/Disable or /Enable. */
export function useSetClubDisabled() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; disabled: boolean }) =>
      api.call(v.disabled ? contract.operatorClubs.disable : contract.operatorClubs.enable, {
        params: { id: v.id },
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: CLUBS_KEY }),
  });
}

const REQUESTS_KEY = ['operatorLicenseRequests'] as const;

/** GET /Operator/LicenseRequest: every club's requests, pending first. */
export function useLicenseQueue(status?: number) {
  return useQuery({
    queryKey: [...REQUESTS_KEY, status ?? 'all'],
    queryFn: () => api.call(contract.operatorLicenses.requests, { query: status != null ? { status } : {} }),
  });
}

/** POST /Operator/LicenseRequest/{id}/Decide. */
export function useDecideRequest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; body: LicenseRequestDecision }) =>
      api.call(contract.operatorLicenses.decide, { params: { id: v.id }, body: v.body }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: REQUESTS_KEY });
      void qc.invalidateQueries({ queryKey: CLUBS_KEY });
    },
  });
}

/** Opens a request's reference file in a new tab (same headers as every API call). */
export async function viewReferenceFile(id: number): Promise<void> {
  const session = readSession();
  const headers: Record<string, string> = {};
  if (session?.token) headers.Authorization = `Bearer ${session.token}`;
  if (session?.externalClubId != null) headers.clubExternalId = String(session.externalClubId);
  const res = await fetch(`/api/Operator/LicenseRequest/${id}/File`, { headers, credentials: 'same-origin' });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    throw new ApiError(res.status, (body.code ?? 'GENERAL_ERROR') as ErrorCode, body.message ?? res.statusText);
  }
  const url = URL.createObjectURL(await res.blob());
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** POST /Operator/Club/{id}/LoadLicenses: licenses loaded by hand with a reason. */
export function useLoadLicenses() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; body: LicenseLoadInput }) =>
      api.call(contract.operatorLicenses.load, { params: { id: v.id }, body: v.body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: CLUBS_KEY }),
  });
}

const CHARGES_KEY = ['operatorClubCharges'] as const;

/** GET /Operator/ClubCharge: every club's yearly charges (or failed ones only), newest first. */
export function useClubCharges(failed?: boolean) {
  return useQuery({
    queryKey: [...CHARGES_KEY, failed ?? 'all'],
    queryFn: () =>
      api.call(contract.operatorBilling.charges, {
        query: failed != null ? { failed: failed ? ('true' as const) : ('false' as const) } : {},
      }),
  });
}

/** POST /Operator/Club/{id}/StartChargeClub: charge a club's stored card for a license year (docs/operator.md). */
export function useStartCharge() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { clubId: number; body: StartChargeClubInput }) =>
      api.call(contract.operatorBilling.startCharge, { params: { id: v.clubId }, body: v.body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: CHARGES_KEY }),
  });
}

/** GET /Operator/Terminal: every club's terminals (offline only when asked). */
export function useFleet(filter: { offline?: boolean; search?: string }) {
  return useQuery({
    queryKey: ['operatorFleet', filter],
    queryFn: () =>
      api.call(contract.operatorBilling.fleet, {
        query: {
          ...(filter.offline ? { offline: 'true' as const } : {}),
          ...(filter.search ? { search: filter.search } : {}),
        },
      }),
    refetchInterval: 30_000,
  });
}

/** GET /Operator/Club/{id}/Settings: the operator-only settings of a club. */
export function useClubOperatorSettings(id: number | null) {
  return useQuery({
    queryKey: ['operatorClubSettings', id],
    queryFn: () => api.call(contract.operatorBilling.settings, { params: { id: id! } }),
    enabled: id != null,
  });
}

/** PATCH /Operator/Club/{id}/Settings. */
export function useUpdateClubOperatorSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; body: OperatorClubSettingsPatch }) =>
      api.call(contract.operatorBilling.updateSettings, { params: { id: v.id }, body: v.body }),
    onSuccess: (_d, v) => void qc.invalidateQueries({ queryKey: ['operatorClubSettings', v.id] }),
  });
}
