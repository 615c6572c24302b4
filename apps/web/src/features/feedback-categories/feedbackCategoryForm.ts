import type { FeedbackCategory, TerminalMode } from '@venue/domain';

/** The category form's values (ids as numbers or empty). */
export interface FeedbackCategoryFormValues {
  name: string;
  type: TerminalMode | undefined;
  reportingSystemCategoryId: number | null;
  defaultSeverityId: number | null;
  reportingSystemLocationId: number | null;
}

/** A category's form values; a new one is empty (type chosen by the user). */
export function feedbackCategoryFormValues(c: FeedbackCategory | null): FeedbackCategoryFormValues {
  if (!c) {
    return {
      name: '',
      type: undefined,
      reportingSystemCategoryId: null,
      defaultSeverityId: null,
      reportingSystemLocationId: null,
    };
  }
  const { name, type, reportingSystemCategoryId, defaultSeverityId, reportingSystemLocationId } = c;
  return { name, type, reportingSystemCategoryId, defaultSeverityId, reportingSystemLocationId };
}

/**
 * Form values → the FeedbackCategoryInput body. Empty required fields are
 * left out so the schema names them (`validation.required`); an empty
 * location is null.
 */
export function feedbackCategoryBody(v: FeedbackCategoryFormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: v.name ?? '',
    reportingSystemLocationId: v.reportingSystemLocationId ?? null,
  };
  if (v.type) body.type = v.type;
  if (v.reportingSystemCategoryId != null) body.reportingSystemCategoryId = v.reportingSystemCategoryId;
  if (v.defaultSeverityId != null) body.defaultSeverityId = v.defaultSeverityId;
  return body;
}
