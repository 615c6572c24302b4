import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, Outlet, useLocation } from 'react-router';
import type { ReportId } from '@venue/domain';
import { AuthProvider, useAuth } from '../platform/auth/AuthProvider';
import { hadExpiredSession, setLoginReason } from '../platform/auth/authStorage';
import { useNavigationEntries } from './navigation';
import { REPORT_SCREENS } from '../features/reports/reportScreens';
import { RouteError } from './RouteError';
import { addCatalogues } from '../platform/i18n/i18n';
import {
  CLIENT_DETAILS_ROUTE,
  GROUP_EDIT_ROUTE,
  INBOX_ROUTE,
  LICENSES_ROUTE,
  LOGIN_ROUTE,
  MONEY_SETTINGS_ROUTE,
  OPERATOR_MESSAGES_ROUTE,
  TERMINAL_DETAILS_ROUTE,
} from './screens';

/**
 * The signed-in frame (antd, live link, menu, header) and every catalogue
 * load after sign-in, not with the sign-in page (docs/operations.md "Console files").
 */
/**
 * Adds every catalogue (catalogues.ts) to i18next; awaited with the signed-in
 * frame, so no signed-in screen renders before its strings.
 */
const loadFullCatalogues = () => import('./catalogues').then((m) => addCatalogues(m.catalogues));
let shellLoad: Promise<{ default: typeof import('./layout/SignedInShell').SignedInShell }> | null = null;
/** Starts (once) loading the signed-in frame; RequireSession calls it once the session's data is here (useFrameLoad). */
function loadShell() {
  shellLoad ??= Promise.all([import('./layout/SignedInShell'), loadFullCatalogues()]).then(([m]) => ({
    default: m.SignedInShell,
  }));
  return shellLoad;
}
const SignedInShell = lazy(loadShell);
const NotAuthorized = lazy(() => import('./RouteResults').then((m) => ({ default: m.NotAuthorized })));
const NotFound = lazy(() => import('./RouteResults').then((m) => ({ default: m.NotFound })));
const LoginPage = lazy(() => import('../features/login/LoginPage').then((m) => ({ default: m.LoginPage })));
const loadDashboard = () => import('../features/dashboard/DashboardPage');
const DashboardPage = lazy(() => loadDashboard().then((m) => ({ default: m.DashboardPage })));
const OccupancyPage = lazy(() =>
  import('../features/occupancy/OccupancyPage').then((m) => ({ default: m.OccupancyPage })),
);
const BookingsPage = lazy(() =>
  import('../features/appointments/BookingsPage').then((m) => ({ default: m.BookingsPage })),
);
const EveningPage = lazy(() =>
  import('../features/appointments/EveningPage').then((m) => ({ default: m.EveningPage })),
);
const GateSafetyPage = lazy(() =>
  import('../features/gate-safety/GateSafetyPage').then((m) => ({ default: m.GateSafetyPage })),
);
const FrontDeskPage = lazy(() =>
  import('../features/front-desk/FrontDeskPage').then((m) => ({ default: m.FrontDeskPage })),
);
const ClientsPage = lazy(() => import('../features/clients/ClientsPage').then((m) => ({ default: m.ClientsPage })));
const GroupsPage = lazy(() => import('../features/groups/GroupsPage').then((m) => ({ default: m.GroupsPage })));
const GroupEditPage = lazy(() =>
  import('../features/groups/GroupEditPage').then((m) => ({ default: m.GroupEditPage })),
);
const ClientDetailsPage = lazy(() =>
  import('../features/clients/ClientDetailsPage').then((m) => ({ default: m.ClientDetailsPage })),
);
const ProductsPage = lazy(() => import('../features/products/ProductsPage').then((m) => ({ default: m.ProductsPage })));
const UsersPage = lazy(() => import('../features/users/UsersPage').then((m) => ({ default: m.UsersPage })));
const SettingsPage = lazy(() => import('../features/settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const CalendarPage = lazy(() => import('../features/calendar/CalendarPage').then((m) => ({ default: m.CalendarPage })));
const SchedulesPage = lazy(() =>
  import('../features/schedules/SchedulesPage').then((m) => ({ default: m.SchedulesPage })),
);
const TerminalsPage = lazy(() =>
  import('../features/terminals/TerminalsPage').then((m) => ({ default: m.TerminalsPage })),
);
const TerminalDetailsPage = lazy(() =>
  import('../features/terminals/TerminalDetailsPage').then((m) => ({ default: m.TerminalDetailsPage })),
);
const TerminalMessagesPage = lazy(() =>
  import('../features/terminal-messages/TerminalMessagesPage').then((m) => ({ default: m.TerminalMessagesPage })),
);
const FeedbackCategoriesPage = lazy(() =>
  import('../features/feedback-categories/FeedbackCategoriesPage').then((m) => ({ default: m.FeedbackCategoriesPage })),
);
const NotificationsPage = lazy(() =>
  import('../features/notifications/NotificationsPage').then((m) => ({ default: m.NotificationsPage })),
);
const IncidentsPage = lazy(() =>
  import('../features/incidents/IncidentsPage').then((m) => ({ default: m.IncidentsPage })),
);
const InboxPage = lazy(() => import('../features/messages/InboxPage').then((m) => ({ default: m.InboxPage })));
const OperatorMessagesPage = lazy(() =>
  import('../features/messages/OperatorMessagesPage').then((m) => ({ default: m.OperatorMessagesPage })),
);
const LicenseQueuePage = lazy(() =>
  import('../features/operator/LicenseQueuePage').then((m) => ({ default: m.LicenseQueuePage })),
);
const ClubChargesPage = lazy(() =>
  import('../features/operator/ClubChargesPage').then((m) => ({ default: m.ClubChargesPage })),
);
const FleetPage = lazy(() => import('../features/operator/FleetPage').then((m) => ({ default: m.FleetPage })));
const OperatorClubsPage = lazy(() =>
  import('../features/operator/OperatorClubsPage').then((m) => ({ default: m.OperatorClubsPage })),
);
const AttendancePage = lazy(() =>
  import('../features/attendance/AttendancePage').then((m) => ({ default: m.AttendancePage })),
);
const EmployeePositionsPage = lazy(() =>
  import('../features/employee-positions/EmployeePositionsPage').then((m) => ({ default: m.EmployeePositionsPage })),
);
const ReportPage = lazy(() => import('../features/reports/ReportPage').then((m) => ({ default: m.ReportPage })));
const ReconcileSaferPaymentsButton = lazy(() =>
  import('../features/reports/ReconcileSaferPayments').then((m) => ({ default: m.ReconcileSaferPaymentsButton })),
);
const MoneySettingsPage = lazy(() =>
  import('../features/masav/MoneySettingsPage').then((m) => ({ default: m.MoneySettingsPage })),
);
const LicensesPage = lazy(() =>
  import('../features/client-money/LicensesPage').then((m) => ({ default: m.LicensesPage })),
);

/** A screen loading: antd's large spinner drawn without antd (light.css), so that it shows before antd loads. */
function PageSpinner() {
  return (
    <div className="center-block page-spinner" aria-busy="true">
      <span className="lt-spin" role="status">
        <i />
        <i />
        <i />
        <i />
      </span>
    </div>
  );
}

/**
 * The dashboard's first screen (counters drawn without antd while the frame
 * loads). The sign-in page asks for it ahead, beside the session's code, so
 * that it is there before the frame's files take the browser's connections.
 */
const loadFirstScreen = () => import('../features/dashboard/DashboardFirstScreen');
const DashboardFirstScreen = lazy(() => loadFirstScreen().then((m) => ({ default: m.DashboardFirstScreen })));

/** The first screen's code, asked for by the sign-in page once its form has drawn. */
const loadFirstScreenAhead = () => void loadFirstScreen().catch(() => undefined);

/**
 * Asks for the signed-in frame's code once the session's data is here; for a
 * user who opens on the dashboard (right after sign-in the console opens /,
 * which goes to the first screen of the menu: the dashboard for most users),
 * first starts the dashboard's six counter calls, then asks for the frame's
 * files and the dashboard's own code, then starts the chart calls. The
 * counters' small calls so go out ahead of ~45 files on the browser's six
 * connections, and the first screen can show them while the frame loads
 * (issue 35; docs/operations.md "Console files"). Answers whether the frame
 * has been asked for, and whether the dashboard is the first screen.
 */
function useFrameLoad(pathname: string, sessionReady: boolean): { asked: boolean; dashboardFirst: boolean } {
  const entries = useNavigationEntries();
  const queryClient = useQueryClient();
  const dashboardFirst =
    sessionReady &&
    (pathname === '/'
      ? entries[0]?.key === 'dashboard'
      : pathname === '/dashboard' && entries.some((e) => e.key === 'dashboard'));
  const [asked, setAsked] = useState(() => shellLoad != null);
  useEffect(() => {
    if (!sessionReady) return;
    let live = true;
    const askForFrame = () => {
      void loadShell();
      if (dashboardFirst) void loadDashboard();
      if (live) setAsked(true);
    };
    if (!dashboardFirst) askForFrame();
    else
      void import('../features/dashboard/dashboardQueries').then((m) => {
        m.prefetchDashboardCounters(queryClient);
        // The query library starts the calls after the current task; the frame's files are asked for after them.
        window.setTimeout(() => {
          askForFrame();
          m.prefetchDashboardCharts(queryClient);
        }, 0);
      }, askForFrame);
    return () => {
      live = false;
    };
  }, [sessionReady, dashboardFirst, queryClient]);
  return { asked, dashboardFirst };
}

/** Signed-in area: redirects to /login (forwarding its query parameters) without a session. */
function RequireSession() {
  const { session, data, loading } = useAuth();
  const location = useLocation();
  const ready = session != null && !loading && data != null;
  const { asked, dashboardFirst } = useFrameLoad(location.pathname, ready);
  if (!session) {
    // A sign-in link's values were kept in memory when the console started (platform/auth/loginParams).
    // A stored token past its expiry: the sign-in page says the session ended.
    if (hadExpiredSession()) setLoginReason('expired');
    return <Navigate to="/login" replace />;
  }
  if (!ready) return <PageSpinner />;
  const first = dashboardFirst ? (
    <Suspense fallback={<PageSpinner />}>
      <DashboardFirstScreen />
    </Suspense>
  ) : (
    <PageSpinner />
  );
  if (!asked) return first;
  return (
    <Suspense fallback={first}>
      <SignedInShell token={session.token} />
    </Suspense>
  );
}

/** A screen the user may see per the navigation rule; otherwise "not authorized". */
function Guard({ navKey, children }: { navKey: string; children: ReactNode }) {
  const entries = useNavigationEntries();
  if (!entries.some((e) => e.key === navKey)) {
    return (
      <Suspense fallback={<PageSpinner />}>
        <NotAuthorized />
      </Suspense>
    );
  }
  return <Suspense fallback={<PageSpinner />}>{children}</Suspense>;
}

function HomeRedirect() {
  const entries = useNavigationEntries();
  return <Navigate to={entries[0]?.route ?? '/management/app-terminals-list'} replace />;
}

function Root() {
  return (
    <AuthProvider>
      <Outlet />
    </AuthProvider>
  );
}

const guarded = (navKey: string, el: ReactNode) => <Guard navKey={navKey}>{el}</Guard>;
/** A screen open to every signed-in user (it checks its own access, if any). */
const suspended = (el: ReactNode) => <Suspense fallback={<PageSpinner />}>{el}</Suspense>;

/** Buttons of a report's screen beside its title. */
const REPORT_ACTIONS: Partial<Record<ReportId, ReactNode>> = { saferPayments: <ReconcileSaferPaymentsButton /> };

/** The console's routes (seed 000 §2); a data router so that screens can block leaving with unsaved edits. */
export const router = createBrowserRouter([
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      {
        path: LOGIN_ROUTE,
        errorElement: <RouteError />,
        element: (
          <Suspense fallback={<PageSpinner />}>
            <LoginPage loadAhead={loadFirstScreenAhead} />
          </Suspense>
        ),
      },
      {
        element: <RequireSession />,
        children: [
          { index: true, element: <HomeRedirect /> },
          { path: '/dashboard', element: guarded('dashboard', <DashboardPage />) },
          { path: '/front-desk', element: guarded('frontDesk', <FrontDeskPage />) },
          { path: '/management/gate-safety', element: guarded('gateSafety', <GateSafetyPage />) },
          { path: '/management/occupancy', element: guarded('occupancy', <OccupancyPage />) },
          { path: '/management/bookings', element: guarded('bookings', <BookingsPage />) },
          { path: '/management/booking-evening', element: guarded('bookingEvening', <EveningPage />) },
          { path: '/management/clients', element: guarded('clients', <ClientsPage />) },
          { path: CLIENT_DETAILS_ROUTE, element: guarded('clients', <ClientDetailsPage />) },
          { path: '/management/app-product-list', element: guarded('products', <ProductsPage />) },
          { path: '/management/app-users-list', element: guarded('users', <UsersPage />) },
          { path: '/management/app-settings', element: guarded('settings', <SettingsPage />) },
          { path: LICENSES_ROUTE, element: guarded('settings', <LicensesPage />) },
          { path: MONEY_SETTINGS_ROUTE, element: guarded('settings', <MoneySettingsPage />) },
          { path: '/management/calendar', element: guarded('calendar', <CalendarPage />) },
          { path: '/management/app-schedules-list', element: guarded('schedules', <SchedulesPage />) },
          { path: '/management/app-groups-list', element: guarded('groups', <GroupsPage />) },
          { path: GROUP_EDIT_ROUTE, element: guarded('groups', <GroupEditPage />) },
          { path: '/management/app-terminals-list', element: guarded('terminals', <TerminalsPage />) },
          {
            path: TERMINAL_DETAILS_ROUTE,
            element: guarded('terminals', <TerminalDetailsPage />),
          },
          { path: '/management/terminal-messages', element: guarded('terminalMessages', <TerminalMessagesPage />) },
          {
            path: '/management/feedback-category-list',
            element: guarded('feedbackCategories', <FeedbackCategoriesPage />),
          },
          { path: '/management/incidents', element: guarded('incidents', <IncidentsPage />) },
          { path: '/management/notifications', element: guarded('notifications', <NotificationsPage />) },
          // The system-messages inbox (seed 001 §2) for every signed-in user; the operator's messages (docs/messages.md).
          { path: INBOX_ROUTE, element: suspended(<InboxPage />) },
          { path: OPERATOR_MESSAGES_ROUTE, element: suspended(<OperatorMessagesPage />) },
          { path: '/management/attendance', element: guarded('attendance', <AttendancePage />) },
          {
            path: '/management/employee-position-list',
            element: guarded('employeePositions', <EmployeePositionsPage />),
          },
          // The operator's area (docs/operator.md).
          { path: '/operator/clubs', element: guarded('operatorClubs', <OperatorClubsPage />) },
          { path: '/operator/license-requests', element: guarded('operatorLicenses', <LicenseQueuePage />) },
          { path: '/operator/club-charges', element: guarded('operatorCharges', <ClubChargesPage />) },
          { path: '/operator/terminals', element: guarded('operatorTerminals', <FleetPage />) },
          // Every report screen of the catalogue (features/reports/reportScreens.ts).
          ...REPORT_SCREENS.map((r) => ({
            path: r.route,
            element: guarded(r.navKey, <ReportPage key={r.id} id={r.id} actions={REPORT_ACTIONS[r.id]} />),
          })),
          { path: '*', element: suspended(<NotFound />) },
          // A screen that fails shows RouteError in its place; the menu and header stay.
        ].map((route) => ({ ...route, errorElement: <RouteError /> })),
      },
    ],
  },
]);
