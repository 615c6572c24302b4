import { describe, expect, it } from 'vitest';
import { FeedbackCategoryInput } from '@venue/domain';
import { feedbackCategoryBody, feedbackCategoryFormValues } from './feedbackCategoryForm';

describe('feedback category form', () => {
  it('an empty form fails on every required field of seed 001 §5, and only those', () => {
    const r = FeedbackCategoryInput.safeParse(feedbackCategoryBody(feedbackCategoryFormValues(null)));
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join('.')).sort();
    expect(paths).toEqual(['defaultSeverityId', 'name', 'reportingSystemCategoryId', 'type']);
  });

  it('round-trips a stored category', () => {
    const c = {
      id: 1,
      clubId: 2,
      name: 'Water too cold',
      type: 'Experience' as const,
      reportingSystemCategoryId: 5,
      defaultSeverityId: 1,
      reportingSystemLocationId: null,
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const body = FeedbackCategoryInput.parse(feedbackCategoryBody(feedbackCategoryFormValues(c)));
    expect(body).toEqual({
      name: 'Water too cold',
      type: 'Experience',
      reportingSystemCategoryId: 5,
      defaultSeverityId: 1,
      reportingSystemLocationId: null,
    });
  });
});
