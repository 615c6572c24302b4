import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type AdminPurchaseRequest, type PaymentMethodInput } from '@venue/domain';
import { api } from '../../platform/api/apiClient';

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
  useQuery({
    queryKey: [...key(id), 'balance'],
    queryFn: () => api.call(contract.purchases.balance, { params: { id } }),
  });
export const useSubscriptions = (id: number) =>
  useQuery({
    queryKey: [...key(id), 'subscriptions'],
    queryFn: () => api.call(contract.subscriptions.ofClient, { params: { id } }),
  });
export const useRenewQuote = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: [...key(id), 'quote'],
    enabled,
    retry: false,
    queryFn: () => api.call(contract.subscriptions.renewQuote, { params: { id } }),
  });
export const useDebts = (id: number) =>
  useQuery({ queryKey: [...key(id), 'debts'], queryFn: () => api.call(contract.debts.ofClient, { params: { id } }) });
export const usePaymentMethod = (id: number) =>
  useQuery({
    queryKey: [...key(id), 'paymentMethod'],
    queryFn: () => api.call(contract.paymentMethods.ofClient, { params: { id } }),
  });
export const usePurchases = (id: number) =>
  useQuery({
    queryKey: [...key(id), 'purchases'],
    queryFn: () => api.call(contract.purchases.ofClient, { params: { id } }),
  });
export const useAutoRenewLogs = (id: number) =>
  useQuery({
    queryKey: [...key(id), 'autoRenewLogs'],
    queryFn: () => api.call(contract.subscriptions.logsOfClient, { params: { id } }),
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
    mutationFn: (body: AdminPurchaseRequest) => api.call(contract.purchases.adminPurchase, { body }),
    onSuccess: done,
  });
}
export function useAddCredit(id: number) {
  const done = useInvalidate(id);
  return useMutation({
    mutationFn: (body: { amount: number; method: 0 | 2; idempotencyKey: string }) =>
      api.call(contract.purchases.addCredit, { params: { id }, body }),
    onSuccess: done,
  });
}
export function useSavePaymentMethod(id: number) {
  const done = useInvalidate(id);
  return useMutation({
    mutationFn: (body: PaymentMethodInput) => api.call(contract.paymentMethods.create, { body }),
    onSuccess: done,
  });
}
export function useDeletePaymentMethod(id: number) {
  const done = useInvalidate(id);
  return useMutation({
    mutationFn: (pmId: number) => api.call(contract.paymentMethods.remove, { params: { id: pmId } }),
    onSuccess: done,
  });
}
export function useAddDebt(id: number) {
  const done = useInvalidate(id);
  return useMutation({
    mutationFn: (body: { amount: number; description: string }) =>
      api.call(contract.debts.create, { body: { clientId: id, ...body } }),
    onSuccess: done,
  });
}
export function useDeleteDebt(id: number) {
  const done = useInvalidate(id);
  return useMutation({
    mutationFn: (debtId: number) => api.call(contract.debts.remove, { params: { id: debtId } }),
    onSuccess: done,
  });
}

/** The purchase's document to the club's invoice e-mail (issued first when needed; docs/money.md "E-mail"). */
export function useEmailReceipt() {
  return useMutation({
    mutationFn: (purchaseId: number) => api.call(contract.documents.emailPurchase, { params: { id: purchaseId } }),
  });
}

/** A fresh idempotency key for one purchase attempt (a retry of the same attempt reuses it). */
export const newKey = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) => n.toString(36)).join('')}`;
