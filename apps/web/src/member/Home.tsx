import { lazy, Suspense, useState } from 'react';
import { memberApi } from './api';
import { errorText } from './errors';
import { ErrorLine, Header } from './Header';
import { useT } from './i18n';
import { useLoad } from './useLoad';
import { SubscriptionPanel } from './SubscriptionPanel';
import { MoneyPanel } from './MoneyPanel';
import { DocumentsPanel } from './DocumentsPanel';
import { EntrancesPanel } from './EntrancesPanel';
import { ProfilePanel } from './ProfilePanel';

/** The booking screen loads on its first opening only (its words and code stay out of the first load). */
const BookingPanel = lazy(() => import('./BookingPanel'));

const TABS = ['subscription', 'booking', 'money', 'documents', 'entrances', 'profile'] as const;
type Tab = (typeof TABS)[number];
const TAB_WORD = {
  booking: 'tabBooking',
  subscription: 'tabSubscription',
  money: 'tabMoney',
  documents: 'tabDocuments',
  entrances: 'tabEntrances',
  profile: 'tabProfile',
} as const;

/**
 * The signed-in member's home (docs/members.md "What a member sees"): whose
 * page (hers or a child's), and the tabs at the bottom, within a thumb's reach.
 */
export default function Home({ onSignOut }: { onSignOut: () => void }) {
  const tr = useT();
  const me = useLoad(() => memberApi.me(), []);
  const [tab, setTab] = useState<Tab>('subscription');
  const [who, setWho] = useState<number | null>(null);
  const signOut = () => {
    void memberApi.logout().catch(() => undefined);
    onSignOut();
  };
  const data = me.data;
  const person = data ? ([data.member, ...data.children].find((p) => p.id === who) ?? data.member) : null;
  return (
    <div className="m-page m-with-tabs">
      <Header title={data?.club.name ?? tr.t('appTitle')}>
        <button type="button" className="m-link" onClick={signOut} data-testid="m-sign-out">
          {tr.t('signOut')}
        </button>
      </Header>
      <main className="m-main">
        {me.error != null && <ErrorLine text={errorText(tr, me.error)} />}
        {!data && me.error == null && <p className="m-loading">{tr.t('loading')}</p>}
        {data && person && (
          <>
            <p className="m-hello" data-testid="m-member-name">
              {data.member.firstName} {data.member.lastName}
            </p>
            {data.children.length > 0 && tab !== 'profile' && tab !== 'booking' && (
              <div className="m-who" role="group" aria-label={tr.t('who')}>
                {[data.member, ...data.children].map((p) => (
                  <button key={p.id} type="button" aria-pressed={p.id === person.id} onClick={() => setWho(p.id)}>
                    {p.id === data.member.id ? tr.t('me') : p.firstName}
                  </button>
                ))}
              </div>
            )}
            {tab === 'subscription' && <SubscriptionPanel clientId={person.id} />}
            {tab === 'booking' && (
              <Suspense fallback={<p className="m-loading">{tr.t('loading')}</p>}>
                <BookingPanel />
              </Suspense>
            )}
            {tab === 'money' && <MoneyPanel clientId={person.id} />}
            {tab === 'documents' && <DocumentsPanel clientId={person.id} />}
            {tab === 'entrances' && <EntrancesPanel clientId={person.id} />}
            {tab === 'profile' && <ProfilePanel member={data.member} onSaved={me.reload} />}
          </>
        )}
      </main>
      <nav className="m-tabs" aria-label={tr.t('appTitle')}>
        {TABS.map((k) => (
          <button
            key={k}
            type="button"
            data-testid={`m-tab-${k}`}
            aria-current={tab === k ? 'page' : undefined}
            onClick={() => setTab(k)}
          >
            {tr.t(TAB_WORD[k])}
          </button>
        ))}
      </nav>
    </div>
  );
}
