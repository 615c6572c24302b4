import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage, useSetLanguage } from '../../platform/i18n/language';
import {
  CloseCircleFilledIcon,
  ExclamationCircleFilledIcon,
  EyeIcon,
  EyeInvisibleIcon,
  LightIcon,
  type LightIconData,
  LoadingIcon,
  LockIcon,
  ShopIcon,
  UserIcon,
} from '../../shared/lightIcons';
import { clearLoginReason, readLoginReason } from '../../platform/auth/authStorage';
import { forgetLoginPassword, takeLoginParams, urlSignInAllowed } from '../../platform/auth/loginParams';
import { useLogin, usePreloadSignInCode, type LoginFieldErrors, type LoginFormValues } from './useLogin';
import '../../shared/light.css';
import { useSignInTitle } from './useSignInTitle';

/**
 * /login (seed 000 §2): userName, password and externalClubId in the query
 * prefill the form; with all three present the console signs in directly.
 *
 * Drawn without antd (shared/light.css gives it antd's look) so that the page
 * loads with the least code: no UI library, no zod (docs/operations.md
 * "Console files", issue 19 load speed). Once the form has drawn, the code a
 * sign-in needs loads ahead (zod, the session's code) with `loadAhead` (the
 * router's: the dashboard's first screen).
 */
export function LoginPage({ loadAhead }: { loadAhead?: () => void } = {}) {
  const { t } = useTranslation();
  const { submit, error, fieldErrors, clearFieldError, submitting } = useLogin();
  // The sign-in link's values, taken out of the address before the console started (platform/auth/loginParams).
  const [params] = useState(takeLoginParams);
  useSignInTitle();
  usePreloadSignInCode(loadAhead);
  // Shown once: the reason is cleared when the page has read it.
  const [reason] = useState(() => readLoginReason());
  useEffect(() => clearLoginReason(), []);
  const autoTried = useRef(false);
  const [values, setValues] = useState<LoginFormValues>(() => ({
    username: params.userName,
    password: params.password,
    externalClubId: params.externalClubId,
  }));

  useEffect(() => {
    if (autoTried.current) return;
    autoTried.current = true;
    forgetLoginPassword();
    // A complete link signs in by itself where the server allows it (not in production unless turned on).
    if (values.username && values.password && values.externalClubId)
      void urlSignInAllowed().then((ok) => {
        if (ok) void submit(values);
      });
    // Run once with the parameters the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const change = (name: keyof LoginFormValues) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    clearFieldError(name);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!submitting) void submit(values);
  };

  return (
    <div className="login-page lt-font">
      <div className="login-card lt-card">
        <div className="login-lang">
          <LoginLanguageSwitch />
        </div>
        <h1 className="lt-title">{t('login.title')}</h1>
        <p className="lt-secondary">{t('login.subtitle')}</p>
        {reason && !error && (
          <Alert type="warning" testId={reason === 'idle' ? 'login-idle' : 'login-expired'}>
            {t(reason === 'idle' ? 'login.sessionIdle' : 'login.sessionExpired')}
          </Alert>
        )}
        {error && (
          <Alert type="error" testId="login-error">
            {error}
          </Alert>
        )}
        <form onSubmit={onSubmit} noValidate>
          <Field
            name="username"
            label={t('login.username')}
            icon={UserIcon}
            value={values.username}
            onChange={change('username')}
            errors={fieldErrors}
            autoComplete="username"
            testId="login-username"
          />
          <Field
            name="password"
            label={t('login.password')}
            icon={LockIcon}
            value={values.password}
            onChange={change('password')}
            errors={fieldErrors}
            autoComplete="current-password"
            testId="login-password"
            password
          />
          <Field
            name="externalClubId"
            label={t('login.externalClubId')}
            icon={ShopIcon}
            value={values.externalClubId}
            onChange={change('externalClubId')}
            errors={fieldErrors}
            inputMode="numeric"
            dir="ltr"
            testId="login-club"
          />
          <button
            type="submit"
            className="lt-btn lt-btn-primary lt-btn-block"
            aria-disabled={submitting || undefined}
            data-testid="login-submit"
          >
            {submitting && <LightIcon icon={LoadingIcon} spin />}
            <span>{t('login.submit')}</span>
          </button>
        </form>
      </div>
    </div>
  );
}

/** The header's LanguageSwitch (app/layout) without antd: the other language, named in that language. */
function LoginLanguageSwitch() {
  const lang = useLanguage();
  const setLanguage = useSetLanguage();
  const other = lang === 'he' ? 'en' : 'he';
  return (
    <button
      type="button"
      className="lt-btn lt-btn-sm"
      data-testid="lang-switch"
      lang={other}
      onClick={() => setLanguage(other)}
      aria-label={other === 'en' ? 'Switch to English' : 'מעבר לעברית'}
    >
      {other === 'en' ? 'English' : 'עברית'}
    </button>
  );
}

function Alert({ type, testId, children }: { type: 'warning' | 'error'; testId: string; children: ReactNode }) {
  return (
    <div className={`lt-alert lt-alert-${type}`} role="alert" data-testid={testId}>
      <LightIcon icon={type === 'error' ? CloseCircleFilledIcon : ExclamationCircleFilledIcon} />
      <div>{children}</div>
    </div>
  );
}

interface FieldProps {
  name: keyof LoginFormValues;
  label: string;
  icon: LightIconData;
  value: string;
  onChange: (value: string) => void;
  errors: LoginFieldErrors;
  testId: string;
  autoComplete?: string;
  inputMode?: 'numeric';
  dir?: 'ltr';
  password?: boolean;
}

/** A labelled input with its icon and, under it, its error (announced; the input points to it). */
function Field({ name, label, icon, value, onChange, errors, testId, password, ...input }: FieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const [visible, setVisible] = useState(false);
  const error = errors[name];
  return (
    <div className={`lt-field${error ? ' lt-field-has-error' : ''}`}>
      <label className="lt-field-label" htmlFor={id}>
        {label}
      </label>
      <span className={`lt-input${error ? ' lt-input-error' : ''}`}>
        <span className="lt-input-prefix">
          <LightIcon icon={icon} />
        </span>
        <input
          id={id}
          name={name}
          type={password && !visible ? 'password' : 'text'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          data-testid={testId}
          {...input}
        />
        {password && (
          <span className="lt-input-suffix">
            <button
              type="button"
              aria-pressed={visible}
              aria-label={t(visible ? 'login.hidePassword' : 'login.showPassword')}
              onClick={() => setVisible((v) => !v)}
            >
              <LightIcon icon={visible ? EyeIcon : EyeInvisibleIcon} />
            </button>
          </span>
        )}
      </span>
      {error && (
        <div className="lt-field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
