import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Client, ClientInput, ClientPatch } from '@venue/domain';
import { api, type Page } from '../../app/api/apiClient';

export interface ClientListParams {
  page: number;
  pageSize: number;
  search?: string;
  sort?: string;
  order: 'asc' | 'desc';
  showDeleted: boolean;
  groupId?: number;
}

const CLIENTS_KEY = ['clients'] as const;

/** GET /Client with server-side paging, sorting and filters (docs/api-foundation.md). */
export function useClientList(params: ClientListParams) {
  return useQuery({
    queryKey: [...CLIENTS_KEY, params],
    queryFn: ({ signal }) =>
      api.get<Page<Client>>(
        '/Client',
        {
          page: params.page,
          pageSize: params.pageSize,
          search: params.search,
          sort: params.sort,
          order: params.order,
          showDeleted: params.showDeleted ? 'true' : undefined,
          groupId: params.groupId,
        },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

/** POST /Client (new) or PATCH /Client/{id}. */
export function useSaveClient() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ClientInput | ClientPatch }) =>
      id == null ? api.post<Client>('/Client', body) : api.patch<Client>(`/Client/${id}`, body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: CLIENTS_KEY }),
  });
}
