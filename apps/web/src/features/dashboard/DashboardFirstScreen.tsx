import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useLanguage } from '../../platform/i18n/language';
import { LightIcon } from '../../shared/lightIcons';
import { useViewport } from '../../shared/useMediaQuery';
import { counterText, dashboardCounters, dashboardDate, type Counter } from './counters';
import { CalendarIcon } from './counterIcons';
import { dashboardQuery } from './dashboardQueries';
import '../../shared/light.css';
import './firstScreen.css';

/**
 * One counter as the dashboard draws it (antd's Card and Statistic), without
 * antd: its title, icon and figure once its call has answered; a quiet
 * placeholder before; "—" if the call failed (the dashboard, once loaded,
 * says why and offers a retry).
 */
function FirstCounter({ counter }: { counter: Counter }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();
  const q = useQuery(dashboardQuery<{ value: number }>(counter.entry));
  return (
    <div className="lt-card" data-testid={counter.testId}>
      <div className="fs-stat-title">{t(counter.titleKey)}</div>
      <div className="fs-stat-value">
        <LightIcon icon={counter.icon} />
        {q.isPending ? (
          <span className="fs-stat-pending" aria-hidden="true" />
        ) : q.isError ? (
          <span>—</span>
        ) : (
          <span className="ltr-value" data-counter="">
            {counterText(counter.kind, q.data.value, lang, club.currencySymbol)}
          </span>
        )}
      </div>
    </div>
  );
}

/**
 * The dashboard's first screen, drawn while the signed-in frame (antd, the
 * menu, the live link) is still loading: the frame's outline (menu column,
 * header with the club's name) and the six counters from their calls, which
 * the router started before the frame's files (dashboardQueries.ts). It
 * loads with the sign-in page's light styles (shared/light.css) and no UI
 * library, so on a slow link the counters show seconds before the full
 * dashboard, which then takes its place with the same figures in the same
 * places (issue 35 dashboard speed; docs/operations.md "Console files").
 */
export function DashboardFirstScreen() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();
  const viewport = useViewport();
  return (
    <div className="fs-shell lt-font" data-testid="dashboard-first-screen">
      {viewport !== 'phone' && (
        <div className="fs-sider">
          <div className="brand">{viewport === 'tablet' ? 'V' : t('app.title')}</div>
        </div>
      )}
      <div className="fs-main">
        <div className="app-header">
          {/* app.css's .header-start .club-name: the frame's header's own rule for the club's name. */}
          <div className="header-start fs-header-start">
            {viewport === 'phone' && <span className="fs-menu-space" aria-hidden="true" />}
            <span className="club-name" dir="auto" title={club.name}>
              {club.name}
            </span>
          </div>
        </div>
        <main className="app-content" aria-busy="true">
          <div className="page-header">
            <h2 className="fs-page-title">{t('nav.dashboard')}</h2>
            <span className="page-subtitle">
              <LightIcon icon={CalendarIcon} /> {dashboardDate(lang, club.location?.timeZone)}
            </span>
          </div>
          <div className="fs-counters">
            {dashboardCounters().map((c) => (
              <FirstCounter key={c.testId} counter={c} />
            ))}
          </div>
        </main>
      </div>
    </div>
  );
}
