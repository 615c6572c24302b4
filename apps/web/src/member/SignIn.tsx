import { useState, type FormEvent } from 'react';
import type { MemberClub } from '@venue/domain';
import { memberApi, storeToken } from './api';
import { errorText } from './errors';
import { ErrorLine, Header } from './Header';
import { useT } from './i18n';

/**
 * Sign-in by one-time code (docs/members.md "Sign-in"): the phone or e-mail
 * on file, then the 6-digit code; a member of several clubs then picks one.
 */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const tr = useT();
  const [step, setStep] = useState<'contact' | 'code' | 'club'>('contact');
  const [contact, setContact] = useState('');
  const [code, setCode] = useState('');
  const [channel, setChannel] = useState<'sms' | 'email'>('sms');
  const [clubs, setClubs] = useState<MemberClub[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(errorText(tr, err));
    } finally {
      setBusy(false);
    }
  };

  const askCode = (e?: FormEvent) => {
    e?.preventDefault();
    if (!contact.trim()) return setError(tr.t('required'));
    void run(async () => {
      const sent = await memberApi.requestCode(contact, tr.lang);
      setChannel(sent.channel);
      setCode('');
      setStep('code');
    });
  };

  const signIn = (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code)) return setError(tr.t('invalidCode'));
    void run(async () => {
      const res = await memberApi.signIn(contact, code);
      storeToken(res.token);
      if (res.clubId != null) return onSignedIn();
      setClubs(res.clubs);
      setStep('club');
    });
  };

  const pick = (clubId: number) =>
    void run(async () => {
      await memberApi.chooseClub(clubId);
      onSignedIn();
    });

  return (
    <div className="m-page">
      <Header title={tr.t('appTitle')} />
      <main className="m-main m-signin">
        <h2>{step === 'club' ? tr.t('chooseClub') : tr.t('signInTitle')}</h2>
        {step === 'contact' && (
          <form onSubmit={askCode} noValidate>
            <p>{tr.t('signInLead')}</p>
            <label htmlFor="m-contact">{tr.t('contact')}</label>
            <input
              id="m-contact"
              data-testid="m-contact"
              dir="ltr"
              autoComplete="username"
              inputMode="email"
              placeholder={tr.t('contactHint')}
              value={contact}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'm-signin-error' : undefined}
              onChange={(e) => setContact(e.target.value)}
            />
            <ErrorLine text={error} id="m-signin-error" />
            <button className="m-primary" type="submit" disabled={busy} data-testid="m-send-code">
              {tr.t('sendCode')}
            </button>
          </form>
        )}
        {step === 'code' && (
          <form onSubmit={signIn} noValidate>
            <p role="status">{channel === 'sms' ? tr.t('codeSentSms') : tr.t('codeSentEmail')}</p>
            <label htmlFor="m-code">{tr.t('code')}</label>
            <input
              id="m-code"
              data-testid="m-code"
              className="m-code"
              dir="ltr"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'm-signin-error' : undefined}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            />
            <ErrorLine text={error} id="m-signin-error" />
            <button className="m-primary" type="submit" disabled={busy} data-testid="m-sign-in">
              {tr.t('signIn')}
            </button>
            <div className="m-row">
              <button type="button" className="m-secondary" disabled={busy} onClick={() => askCode()}>
                {tr.t('resend')}
              </button>
              <button type="button" className="m-secondary" onClick={() => setStep('contact')}>
                {tr.t('otherContact')}
              </button>
            </div>
          </form>
        )}
        {step === 'club' && <ClubChoice clubs={clubs} busy={busy} error={error} onPick={pick} />}
      </main>
    </div>
  );
}

/** The clubs of a contact on file in several: she picks one. */
function ClubChoice(p: { clubs: MemberClub[]; busy: boolean; error: string | null; onPick: (clubId: number) => void }) {
  return (
    <>
      <ul className="m-list">
        {p.clubs.map((c) => (
          <li key={c.clubId}>
            <button type="button" className="m-choice" disabled={p.busy} onClick={() => p.onPick(c.clubId)}>
              {c.name}
            </button>
          </li>
        ))}
      </ul>
      <ErrorLine text={p.error} />
    </>
  );
}
