import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type AdminPurchaseRequest, type CheckInRequest, type FrontDeskGate } from '@venue/domain';
import { api } from '../../platform/api/apiClient';

/** API hooks of the front desk (docs/front-desk.md); the entries are `contract.frontDesk`. */
export const DESK_KEY = ['front-desk'] as const;

/** The club's gates, main first. */
export function useGates() {
  return useQuery({ queryKey: [...DESK_KEY, 'gates'], queryFn: () => api.call(contract.frontDesk.gates) });
}

/** What the one box found for `q` (nothing asked while `q` is empty). */
export function useFind(q: string) {
  return useQuery({
    queryKey: [...DESK_KEY, 'find', q],
    enabled: q.trim() !== '',
    queryFn: ({ signal }) => api.call(contract.frontDesk.find, { query: { q }, signal }),
    staleTime: 0,
  });
}

/** The client at a glance with the gate's verdict at `terminalId`. */
export function useGlance(clientId: number | null, terminalId: number | null) {
  return useQuery({
    queryKey: [...DESK_KEY, 'glance', clientId, terminalId],
    enabled: clientId != null,
    queryFn: ({ signal }) =>
      api.call(contract.frontDesk.glance, {
        params: { id: clientId! },
        query: terminalId != null ? { terminalId } : {},
        signal,
      }),
  });
}

/** The client's face enrolment image (the first), when the glance says there is one. */
export function usePhoto(clientId: number | null, hasPhoto: boolean) {
  return useQuery({
    queryKey: [...DESK_KEY, 'photo', clientId],
    enabled: clientId != null && hasPhoto,
    staleTime: 5 * 60_000,
    queryFn: async () => {
      const r = await api.call(contract.biometrics.faceImages, { params: { id: clientId! } });
      return r.items.at(-1)?.image ?? null;
    },
  });
}

/** After a desk write: the glance, the search and the client's money screens are stale. */
function useRefresh() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: DESK_KEY });
    void qc.invalidateQueries({ queryKey: ['client-money'] });
    void qc.invalidateQueries({ queryKey: ['clients'] });
  };
}

export function useCheckIn() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: CheckInRequest) => api.call(contract.frontDesk.checkIn, { body }),
    onSuccess: refresh,
  });
}

/** The sale of an entrance that admits at `terminalId`: the purchase dialog's request, sent to the desk. */
export function useSellEntrance(terminalId: number | null) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (req: AdminPurchaseRequest) =>
      api.call(contract.frontDesk.sellEntrance, {
        body: {
          clientId: req.clientId,
          terminalId: terminalId!,
          purchaseItems: req.purchaseItems,
          payments: req.payments,
          idempotencyKey: req.idempotencyKey,
        },
      }),
    onSuccess: refresh,
  });
}

const GATE_STORAGE = 'venue.deskGate';

/**
 * The desk's gate: chosen once per device (kept in this browser), else the main approved gate,
 * else the first approved one, else none. A stored gate that no longer exists is forgotten.
 */
export function useDeskGate(gates: FrontDeskGate[] | undefined): [number | null, (id: number) => void] {
  const [stored, setStored] = useState<number | null>(() => {
    const v = Number(localStorage.getItem(GATE_STORAGE));
    return Number.isInteger(v) && v > 0 ? v : null;
  });
  const chosen = gates?.find((g) => g.id === stored) ?? gates?.find((g) => g.approved) ?? gates?.[0] ?? null;
  useEffect(() => {
    if (gates && stored != null && !gates.some((g) => g.id === stored)) localStorage.removeItem(GATE_STORAGE);
  }, [gates, stored]);
  const choose = (id: number) => {
    localStorage.setItem(GATE_STORAGE, String(id));
    setStored(id);
  };
  return [chosen?.id ?? null, choose];
}
