import type { TFunction } from 'i18next';
import { ApiError } from '../../platform/api/apiClient';
import { errorText } from '../../shared/errors';

/**
 * The message of a failed position change (seed 001 §8 "Employee position:
 * create, update, delete failure; not authorized to edit, add or delete
 * positions"): 403 reads the positions' own wording, the rest their code's text.
 */
export function positionErrorText(t: TFunction, err: unknown): string {
  if (err instanceof ApiError && err.code === 'NOT_AUTHORIZED') return t('positions.notAuthorized');
  return errorText(t, err);
}
