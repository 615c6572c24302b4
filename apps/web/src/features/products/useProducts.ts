import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '@venue/domain';
import { DEFAULT_PRODUCTS_CAPACITY, type Capacity, type ProductInput, type ProductPatch } from '@venue/domain';
import { api } from '../../platform/api/apiClient';

const PRODUCTS_KEY = ['products'] as const;

/** GET /Product (inactive products too). */
export function useProductList() {
  return useQuery({
    queryKey: PRODUCTS_KEY,
    queryFn: () => api.call(contract.products.list, { query: { showInactive: 'true' } }),
  });
}

/** POST /Product or PATCH /Product/{id}. */
export function useSaveProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ProductInput | ProductPatch }) =>
      id == null
        ? api.call(contract.products.create, { body: body as ProductInput })
        : api.call(contract.products.update, { params: { id }, body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: PRODUCTS_KEY }),
  });
}

/** DELETE /Product/{id} (soft). */
export function useDeleteProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(contract.products.remove, { params: { id } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: PRODUCTS_KEY }),
  });
}

/** The club's product capacity (seed 000 §9): the `products` capacity, else 4. */
export function productLimit(capacities: Capacity[]): number {
  const c = capacities.find((x) => x.name === 'products');
  return c && c.capacity > 0 ? c.capacity : DEFAULT_PRODUCTS_CAPACITY;
}
