import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CLIENT_SORTS, contract } from '@venue/domain';
import type { BulkClientsRequest, ClientInput, ClientPatch, ImportResult } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { downloadFile } from '../../shared/download';
import { uploadFile, UploadError } from '../../shared/upload';

/** The filters of the clients list (kept in the grid state, restored at sign-in). */
export interface ClientFilters {
  search?: string;
  groupId?: number;
  showDeleted?: boolean;
  status?: number;
  clientType?: number;
  subscription?: 'valid' | 'expired' | 'none';
  licenseExpired?: boolean;
}

export interface ClientListParams extends ClientFilters {
  page: number;
  pageSize: number;
  sort?: string;
  order: 'asc' | 'desc';
}

export const CLIENTS_KEY = ['clients'] as const;

/** Query string of GET /Client and GET /Client/Export (ClientListQuery). */
export function clientQuery(p: ClientFilters & { sort?: string; order: 'asc' | 'desc' }) {
  return {
    search: p.search,
    sort: CLIENT_SORTS.find((k) => k === p.sort),
    order: p.order,
    showDeleted: p.showDeleted ? 'true' : undefined,
    groupId: p.groupId,
    status: p.status,
    clientType: p.clientType,
    subscription: p.subscription,
    licenseExpired: p.licenseExpired ? 'true' : undefined,
  };
}

/** GET /Client with server-side paging, sorting and filters (docs/api-management.md). */
export function useClientList(params: ClientListParams) {
  return useQuery({
    queryKey: [...CLIENTS_KEY, 'list', params],
    queryFn: ({ signal }) =>
      api.call(contract.clients.list, {
        query: { page: params.page, pageSize: params.pageSize, ...clientQuery(params) },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** GET /Client/Export: the list as .xlsx with the same filters and sort. */
export function exportClients(p: ClientFilters & { sort?: string; order: 'asc' | 'desc' }): Promise<void> {
  return downloadFile('/Client/Export', { query: clientQuery(p) }, 'clients.xlsx');
}

/** GET /GetClientFull/{id}: the client with its group, parent and children. */
export function useClientFull(id: number) {
  return useQuery({
    queryKey: [...CLIENTS_KEY, 'full', id],
    queryFn: () => api.call(contract.clients.full, { params: { id } }),
  });
}

/** GET /Client/GetClientHistory/{id}, newest first. */
export function useClientHistory(id: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...CLIENTS_KEY, 'history', id, page, pageSize],
    queryFn: () => api.call(contract.clients.history, { params: { id }, query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

/** GET /Client/GetParents/{id}: the parent chain of a client. */
export function useClientParents(id: number) {
  return useQuery({
    queryKey: [...CLIENTS_KEY, 'parents', id],
    queryFn: () => api.call(contract.clients.parents, { params: { id } }),
  });
}

/** POST /Client (new) or PATCH /Client/{id}. */
export function useSaveClient() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ClientInput | ClientPatch }) =>
      id == null
        ? api.call(contract.clients.create, { body: body as ClientInput })
        : api.call(contract.clients.update, { params: { id }, body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: CLIENTS_KEY }),
  });
}

/** Delete (status Deleted) or restore (status Active) one client. */
export function useSetClientStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: number }) =>
      api.call(contract.clients.update, { params: { id }, body: { status } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: CLIENTS_KEY }),
  });
}

/** POST /Client/updateBulkClients {rows, action, newValue}: one transaction on the server. */
export function useBulkClients() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkClientsRequest) => api.call(contract.clients.bulkUpdate, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: CLIENTS_KEY }),
  });
}

/** POST /Client/ImportClients: `preview` validates and writes nothing; otherwise all rows or none. */
export async function importClients(file: File, preview: boolean): Promise<ImportResult> {
  try {
    return await uploadFile<ImportResult>('/Client/ImportClients', file, { preview: preview ? 'true' : 'false' });
  } catch (e) {
    // A commit with row errors writes nothing and answers the errors (422 IMPORT_HAS_ERRORS).
    if (e instanceof UploadError && e.code === 'IMPORT_HAS_ERRORS' && Array.isArray(e.rawDetails)) {
      const errors = e.rawDetails as ImportResult['errors'];
      return { preview: false, rows: 0, created: 0, errors, sample: [] };
    }
    throw e;
  }
}

/** GET /Client/ImportSample: the sample .xlsx with the accepted headers. */
export function downloadImportSample(lang: string): Promise<void> {
  return downloadFile('/Client/ImportSample', { query: { lang } }, 'clients-sample.xlsx');
}
