import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PRODUCTS_CAPACITY,
  type Capacity,
  type Product,
  type ProductInput,
  type ProductPatch,
} from '@venue/domain';
import { api, type Page } from '../../app/api/apiClient';

const PRODUCTS_KEY = ['products'] as const;

/** GET /Product (inactive products too). */
export function useProductList() {
  return useQuery({
    queryKey: PRODUCTS_KEY,
    queryFn: () => api.get<Page<Product>>('/Product', { showInactive: 'true' }),
  });
}

/** POST /Product or PATCH /Product/{id}. */
export function useSaveProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ProductInput | ProductPatch }) =>
      id == null ? api.post<Product>('/Product', body) : api.patch<Product>(`/Product/${id}`, body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: PRODUCTS_KEY }),
  });
}

/** DELETE /Product/{id} (soft). */
export function useDeleteProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ ok: true }>(`/Product/${id}`),
    onSuccess: () => void qc.invalidateQueries({ queryKey: PRODUCTS_KEY }),
  });
}

/** The club's product capacity (seed 000 §9): the `products` capacity, else 4. */
export function productLimit(capacities: Capacity[]): number {
  const c = capacities.find((x) => x.name === 'products');
  return c && c.capacity > 0 ? c.capacity : DEFAULT_PRODUCTS_CAPACITY;
}
