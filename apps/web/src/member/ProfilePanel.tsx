import { useEffect, useState, type FormEvent } from 'react';
import type { MemberPerson, NotificationChoices } from '@venue/domain';
import { memberApi, MemberApiError } from './api';
import { errorText } from './errors';
import { ErrorLine } from './Header';
import { useT } from './i18n';

/**
 * Her contact details (where the next sign-in code and notices go) and her
 * notification choices (docs/notifications.md "Opting out").
 */
export function ProfilePanel({ member, onSaved }: { member: MemberPerson; onSaved: () => void }) {
  const tr = useT();
  const [phone, setPhone] = useState(member.phone);
  const [email, setEmail] = useState(member.email);
  const [error, setError] = useState<{ path: string; text: string } | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      await memberApi.updateContact({ phone, email });
      setSaved(true);
      onSaved();
    } catch (err) {
      const path = err instanceof MemberApiError ? (err.fields[0]?.path ?? '') : '';
      setError({ path, text: errorText(tr, err) });
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (path: string) => (error?.path === path ? error.text : null);
  return (
    <section aria-labelledby="m-profile-title" data-testid="m-profile">
      <h2 id="m-profile-title">{tr.t('contactTitle')}</h2>
      <form onSubmit={(e) => void save(e)} noValidate>
        <label htmlFor="m-phone">{tr.t('phone')}</label>
        <input
          id="m-phone"
          dir="ltr"
          inputMode="tel"
          autoComplete="tel"
          value={phone}
          aria-invalid={fieldError('phone') ? true : undefined}
          aria-describedby={fieldError('phone') ? 'm-phone-error' : undefined}
          onChange={(e) => setPhone(e.target.value)}
        />
        <ErrorLine text={fieldError('phone')} id="m-phone-error" />
        <label htmlFor="m-email">{tr.t('email')}</label>
        <input
          id="m-email"
          dir="ltr"
          inputMode="email"
          autoComplete="email"
          value={email}
          aria-invalid={fieldError('email') ? true : undefined}
          aria-describedby={fieldError('email') ? 'm-email-error' : undefined}
          onChange={(e) => setEmail(e.target.value)}
        />
        <ErrorLine text={fieldError('email')} id="m-email-error" />
        <ErrorLine text={error && !['phone', 'email'].includes(error.path) ? error.text : null} />
        <button type="submit" className="m-primary" disabled={busy}>
          {tr.t('save')}
        </button>
        <p role="status">{saved ? tr.t('saved') : ''}</p>
      </form>
      <NoticeChoices />
    </section>
  );
}

/** Notices by e-mail and by SMS on or off; each switch is saved when it changes. */
function NoticeChoices() {
  const tr = useT();
  const [choices, setChoices] = useState<NotificationChoices | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    memberApi.notificationChoices().then(setChoices, (err: unknown) => setError(errorText(tr, err)));
  }, [tr]);
  const change = async (patch: { email?: boolean; sms?: boolean }) => {
    const before = choices;
    setError(null);
    setSaved(false);
    // The switch moves at once; it goes back with the message when the save fails.
    if (before) setChoices({ ...before, ...patch });
    try {
      setChoices(await memberApi.setNotificationChoices(patch));
      setSaved(true);
    } catch (err) {
      setChoices(before);
      setError(errorText(tr, err));
    }
  };
  return (
    <fieldset className="m-notices" data-testid="m-notices">
      <legend>{tr.t('noticesTitle')}</legend>
      {choices && (
        <>
          <label className="m-check">
            <input type="checkbox" checked={choices.email} onChange={(e) => void change({ email: e.target.checked })} />
            {tr.t('noticesEmail')}
          </label>
          <label className="m-check">
            <input type="checkbox" checked={choices.sms} onChange={(e) => void change({ sms: e.target.checked })} />
            {tr.t('noticesSms')}
          </label>
        </>
      )}
      <ErrorLine text={error} />
      <p role="status">{saved ? tr.t('saved') : ''}</p>
      <p className="m-note">{tr.t('noticesNote')}</p>
    </fieldset>
  );
}
