import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminPurchaseRequest,
  BalanceResponse,
  Debt,
  PaymentMethodInput,
  PaymentMethodView,
  Purchase,
  SubscriptionsResponse,
} from '@venue/domain';
import { api } from '../../app/api/apiClient';

/** API hooks of the client's money tabs (docs/money.md). */
const key = (clientId: number) => ['client-money', clientId] as const;

export interface RenewQuote {
  start: string;
  end: string;
  price: number;
  method: number;
  proratedDays: number;
  monthlyPrice: number;
  hasPaymentMethod: boolean;
}
export interface AutoRenewLogRow {
  id: number;
  at: string;
  success: boolean;
  error: string | null;
  amount: number;
  purchaseId: number | null;
  debtId: number | null;
  startDate: string | null;
  endDate: string | null;
}

export const useBalance = (id: number) =>
  useQuery({ queryKey: [...key(id), 'balance'], queryFn: () => api.get<BalanceResponse>(`/getBalance/${id}`) });
export const useSubscriptions = (id: number) =>
  useQuery({
    queryKey: [...key(id), 'subscriptions'],
    queryFn: () => api.get<SubscriptionsResponse>(`/GetSubscriptions/${id}`),
  });
export const useRenewQuote = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: [...key(id), 'quote'],
    enabled,
    retry: false,
    queryFn: () => api.post<RenewQuote>(`/GetRenewSubscriptionStartAndEndDatesAndPrice/${id}`, {}),
  });
export const useDebts = (id: number) =>
  useQuery({ queryKey: [...key(id), 'debts'], queryFn: () => api.get<Debt[]>(`/Debts/GetByClientId/${id}`) });
export const usePaymentMethod = (id: number) =>
  useQuery({
    queryKey: [...key(id), 'paymentMethod'],
    queryFn: () => api.get<PaymentMethodView | null>(`/CreditCard/GetByClientId/${id}`),
  });
export const usePurchases = (id: number) =>
  useQuery({
    queryKey: [...key(id), 'purchases'],
    queryFn: () => api.get<Purchase[]>(`/Purchase/GetByClientId/${id}`),
  });
export const useAutoRenewLogs = (id: number) =>
  useQuery({
    queryKey: [...key(id), 'autoRenewLogs'],
    queryFn: () => api.get<AutoRenewLogRow[]>(`/AutoRenew/GetLogsByClientId/${id}`),
  });

/** Every money change refreshes the client's money data and its details page. */
function useInvalidate(id: number) {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: key(id) });
    void qc.invalidateQueries({ queryKey: ['clients'] });
    void qc.invalidateQueries({ queryKey: ['client'] });
  };
}

export function usePurchase(id: number) {
  const done = useInvalidate(id);
  return useMutation({
    mutationFn: (body: AdminPurchaseRequest) => api.post<Purchase>('/Client/AdminPurchase', body),
    onSuccess: done,
  });
}
export function useAddCredit(id: number) {
  const done = useInvalidate(id);
  return useMutation({
    mutationFn: (body: { amount: number; method: 0 | 2; idempotencyKey: string }) =>
      api.post<Purchase>(`/addCredit/${id}`, body),
    onSuccess: done,
  });
}
export function useSavePaymentMethod(id: number) {
  const done = useInvalidate(id);
  return useMutation({
    mutationFn: (body: PaymentMethodInput) => api.post<PaymentMethodView>('/CreditCard', body),
    onSuccess: done,
  });
}
export function useDeletePaymentMethod(id: number) {
  const done = useInvalidate(id);
  return useMutation({
    mutationFn: (pmId: number) => api.delete<{ ok: true }>(`/CreditCard/${pmId}`),
    onSuccess: done,
  });
}
export function useAddDebt(id: number) {
  const done = useInvalidate(id);
  return useMutation({
    mutationFn: (body: { amount: number; description: string }) => api.post<Debt>('/Debts', { clientId: id, ...body }),
    onSuccess: done,
  });
}
export function useDeleteDebt(id: number) {
  const done = useInvalidate(id);
  return useMutation({
    mutationFn: (debtId: number) => api.patch<Debt>(`/Debts/Delete/${debtId}`, {}),
    onSuccess: done,
  });
}

/** A fresh idempotency key for one purchase attempt (a retry of the same attempt reuses it). */
export const newKey = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) => n.toString(36)).join('')}`;
