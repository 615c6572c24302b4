import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { preloadSessionCode, useAuth } from '../../platform/auth/AuthProvider';
import { errorText, zodFieldIssues } from '../../shared/errors';

export interface LoginFormValues {
  username: string;
  password: string;
  externalClubId: string;
}

/** Translated error of each field that failed validation (first issue per field). */
export type LoginFieldErrors = Partial<Record<keyof LoginFormValues, string>>;

/** The performance mark set when the sign-in form has drawn, before anything is loaded ahead (e2e/sign-in-load.spec.ts). */
export const SIGN_IN_FORM_MARK = 'venue:sign-in-form';

/**
 * Loads what a submit needs (the request's schema with zod, the session's
 * code) and what the router says follows a sign-in (`ahead`: the dashboard's
 * first screen) as soon as the sign-in form has drawn: not with the page,
 * which stays light, and not after the click, which would hold the sign-in
 * call back by a round trip and a parse, and the session's calls behind the
 * signed-in frame's files (issue 35 dashboard speed; docs/operations.md
 * "Console files").
 */
export function usePreloadSignInCode(ahead?: () => void): void {
  useEffect(() => {
    performance.mark(SIGN_IN_FORM_MARK);
    void import('./loginSchema').catch(() => undefined);
    preloadSessionCode();
    ahead?.();
    // Once, when the form first draws.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/**
 * Validates with the shared LoginRequest schema, signs in, and goes to the
 * first screen. Field errors come back in `fieldErrors`; a refused sign-in
 * (or any other failure) in `error`, translated.
 */
export function useLogin() {
  const { login } = useAuth();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<LoginFieldErrors>({});
  const [submitting, setSubmitting] = useState(false);

  const submit = useCallback(
    async (values: LoginFormValues) => {
      setError(null);
      // The schema (and zod) load after the page (usePreloadSignInCode), at the latest here.
      const { LoginRequest } = await import('./loginSchema');
      const parsed = LoginRequest.safeParse(values);
      if (!parsed.success) {
        const errors: LoginFieldErrors = {};
        for (const issue of zodFieldIssues(t, parsed.error)) {
          const name = issue.name[0] as keyof LoginFormValues;
          errors[name] ??= issue.errors[0];
        }
        setFieldErrors(errors);
        return;
      }
      setFieldErrors({});
      setSubmitting(true);
      try {
        await login(parsed.data);
        void navigate('/', { replace: true });
      } catch (e) {
        setError(errorText(t, e));
      } finally {
        setSubmitting(false);
      }
    },
    [login, navigate, t],
  );
  /** Clears a field's error once the user changes it. */
  const clearFieldError = useCallback(
    (name: keyof LoginFormValues) => setFieldErrors((prev) => (prev[name] ? { ...prev, [name]: undefined } : prev)),
    [],
  );
  return { submit, error, fieldErrors, clearFieldError, submitting };
}
