import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../platform/auth/AuthProvider';
import { errorText, zodFieldIssues } from '../../shared/errors';

export interface LoginFormValues {
  username: string;
  password: string;
  externalClubId: string;
}

/** Translated error of each field that failed validation (first issue per field). */
export type LoginFieldErrors = Partial<Record<keyof LoginFormValues, string>>;

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
      // The schema (and zod) load with the first submit, not with the sign-in page.
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
