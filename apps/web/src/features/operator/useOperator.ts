import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  contract,
  type ErrorCode,
  type LicenseLoadInput,
  type LicenseRequestDecision,
  type OperatorClubInput,
  type OperatorClubListQuery,
} from '@venue/domain';
import { api, ApiError } from '../../app/api/apiClient';
import { readSession } from '../../app/auth/authStorage';

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
