import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type FeedbackCategoryInput, type FeedbackCategoryPatch } from '@venue/domain';
import { api } from '../../platform/api/apiClient';

const KEY = ['feedbackCategories'] as const;

/** GET /FeedbackCategory: the club's categories (docs/messages.md). */
export function useFeedbackCategories() {
  return useQuery({ queryKey: KEY, queryFn: () => api.call(contract.feedbackCategories.list) });
}

/** POST /FeedbackCategory or PATCH /FeedbackCategory/{id}. */
export function useSaveFeedbackCategory() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id?: number; body: FeedbackCategoryInput | FeedbackCategoryPatch }) =>
      v.id != null
        ? api.call(contract.feedbackCategories.update, { params: { id: v.id }, body: v.body })
        : api.call(contract.feedbackCategories.create, { body: v.body as FeedbackCategoryInput }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  });
}

/** DELETE /FeedbackCategory/{id}. */
export function useDeleteFeedbackCategory() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(contract.feedbackCategories.remove, { params: { id } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  });
}
