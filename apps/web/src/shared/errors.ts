import type { TFunction } from 'i18next';
import type { FormInstance } from 'antd';
import type { z } from 'zod';
import { ApiError } from '../platform/api/apiClient';

/** Translated text of an error: `errors.<code>`, never the server's English (STYLE point 8). */
export function errorText(t: TFunction, err: unknown): string {
  const code = err instanceof ApiError ? err.code : 'GENERAL_ERROR';
  return t(`errors.${code}`, { defaultValue: t('errors.GENERAL_ERROR') });
}

/** Translated text of a validation message key (`validation.<key>`), with a generic fallback. */
export function validationText(t: TFunction, key: string): string {
  return t(`validation.${key}`, { defaultValue: t('validation.invalid') });
}

export interface FieldIssue {
  name: (string | number)[];
  errors: string[];
}

/** zod issues → antd field errors (messages are i18n keys, schemas.ts). */
export function zodFieldIssues(t: TFunction, error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => ({
    name: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    errors: [validationText(t, i.message)],
  }));
}

/** Server VALIDATION_ERROR details (dot paths) → antd field errors. */
export function serverFieldIssues(t: TFunction, err: unknown): FieldIssue[] {
  if (!(err instanceof ApiError)) return [];
  return err.details
    .filter((d) => d.path !== '')
    .map((d) => ({
      name: d.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      errors: [validationText(t, d.message)],
    }));
}

/** Puts field issues on a form; returns whether any was placed. */
export function applyFieldIssues(form: FormInstance, issues: FieldIssue[]): boolean {
  if (issues.length === 0) return false;
  form.setFields(issues);
  return true;
}
