import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { FormInstance } from 'antd';
import { useAuth } from '../../app/auth/AuthProvider';
import { errorText, zodFieldIssues, applyFieldIssues } from '../../shared/errors';

export interface LoginFormValues {
  username: string;
  password: string;
  externalClubId: string;
}

/** Validates with the shared LoginRequest schema, signs in, and goes to the first screen. */
export function useLogin(form: FormInstance<LoginFormValues>) {
  const { login } = useAuth();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = useCallback(
    async (values: LoginFormValues) => {
      setError(null);
      // The schema (and zod) load with the first submit, not with the sign-in page.
      const { LoginRequest } = await import('./loginSchema');
      const parsed = LoginRequest.safeParse(values);
      if (!parsed.success) {
        applyFieldIssues(form, zodFieldIssues(t, parsed.error));
        return;
      }
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
    [form, login, navigate, t],
  );
  return { submit, error, submitting };
}
