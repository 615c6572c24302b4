import { useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Badge, Button, Drawer, Layout, Menu, Space, Tooltip, type MenuProps } from 'antd';
import {
  AlertOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BookOutlined,
  CalendarOutlined,
  DashboardOutlined,
  DesktopOutlined,
  IdcardOutlined,
  LogoutOutlined,
  MailOutlined,
  MenuOutlined,
  MessageOutlined,
  SettingOutlined,
  SafetyOutlined,
  ShopOutlined,
  ShoppingOutlined,
  TagsOutlined,
  ScheduleOutlined,
  FieldTimeOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { NavEntry } from '@venue/domain';
import { useAuth, useSessionData } from '../../platform/auth/AuthProvider';
import { useNavigationEntries } from '../navigation';
import { useLiveStatus } from '../../platform/live/LiveProvider';
import { useDrawerSide } from '../../platform/i18n/LocaleProvider';
import { LanguageSwitch } from './LanguageSwitch';
import { useViewport } from '../../shared/useMediaQuery';
import { OfflineBanner } from './OfflineBanner';
import { OperatorBanner } from '../../features/operator/OperatorBanner';
import { SafetyBanner } from '../../features/gate-safety/SafetyBanner';
import { LicensesLive } from '../../features/client-money/LicensesLive';
import { useCan } from '../../platform/auth/useCan';
import { MessageBell } from '../../features/messages/MessageBell';
import { OPERATOR_MESSAGES_ROUTE } from '../../features/messages/routes';
import { usePageTitle } from '../pageTitle';

const ICONS: Record<string, React.ReactNode> = {
  dashboard: <DashboardOutlined />,
  frontDesk: <ShopOutlined />,
  gateSafety: <SafetyOutlined />,
  occupancy: <TeamOutlined />,
  bookings: <ScheduleOutlined />,
  bookingEvening: <FieldTimeOutlined />,
  clients: <UserOutlined />,
  groups: <TeamOutlined />,
  terminals: <DesktopOutlined />,
  entranceReport: <BarChartOutlined />,
  products: <ShoppingOutlined />,
  settings: <SettingOutlined />,
  users: <IdcardOutlined />,
  schedules: <CalendarOutlined />,
  calendar: <BookOutlined />,
  terminalMessages: <MessageOutlined />,
  feedbackCategories: <TagsOutlined />,
  incidents: <AlertOutlined />,
  notifications: <MailOutlined />,
};

function useMenuItems(entries: NavEntry[], collapsed: boolean, onNavigate?: () => void): MenuProps['items'] {
  const { t } = useTranslation();
  const sections = ['management', 'reports', 'operator'] as const;
  return sections
    .map((section) => ({
      type: 'group' as const,
      key: section,
      // A collapsed sider has no room for section titles; the icons carry the meaning.
      label: collapsed ? null : t(`navSection.${section}`),
      children: entries
        .filter((e) => e.section === section)
        .map((e) => ({
          key: e.route,
          icon: ICONS[e.key] ?? (e.section === 'reports' ? <BarChartOutlined /> : <AppstoreOutlined />),
          label: (
            <Link to={e.route} data-testid={`nav-${e.key}`} onClick={onNavigate}>
              {t(`nav.${e.key}`)}
            </Link>
          ),
        })),
    }))
    .filter((g) => g.children.length > 0);
}

function LiveIndicator() {
  const { t } = useTranslation();
  const status = useLiveStatus();
  const badge = status === 'open' ? 'success' : status === 'connecting' ? 'processing' : 'error';
  return (
    <Tooltip title={t(`live.${status}`)}>
      <span data-testid="live-status" data-state={status} className="live-status">
        <Badge status={badge} text={<span className="hide-phone">{t(`live.${status}`)}</span>} />
      </span>
    </Tooltip>
  );
}

/** The signed-in frame: side navigation, header, and the current screen. */
export function AppLayout() {
  const { t } = useTranslation();
  const { logout } = useAuth();
  const { user, club } = useSessionData();
  const entries = useNavigationEntries();
  const isOperator = useCan()({ operator: true });
  const viewport = useViewport();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const navSide = useDrawerSide('start');
  const location = useLocation();
  usePageTitle(location.pathname, club.name);
  const selected = entries.filter((e) => location.pathname.startsWith(e.route)).map((e) => e.route);

  const items = useMenuItems(entries, viewport === 'tablet', () => setDrawerOpen(false));
  const menu = (
    <Menu mode="inline" selectedKeys={selected} items={items} className="side-menu" data-testid="side-nav" />
  );

  return (
    <Layout className="app-shell">
      {/* The first Tab stop: past the menu and header to the screen (WCAG 2.4.1; docs/accessibility.md). */}
      <a className="skip-link" href="#main-content" data-testid="skip-link">
        {t('a11y.skipToContent')}
      </a>
      {viewport !== 'phone' && (
        <Layout.Sider
          theme="light"
          width={232}
          collapsedWidth={64}
          collapsed={viewport === 'tablet'}
          trigger={null}
          className="app-sider"
        >
          <div className="brand">{viewport === 'tablet' ? 'V' : t('app.title')}</div>
          {menu}
        </Layout.Sider>
      )}
      {viewport === 'phone' && (
        <Drawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          placement={navSide}
          size={260}
          title={t('app.title')}
          styles={{ body: { padding: 0 } }}
        >
          {menu}
        </Drawer>
      )}
      <Layout>
        <Layout.Header className="app-header">
          <Space size="small" className="header-start">
            {viewport === 'phone' && (
              <Button
                type="text"
                icon={<MenuOutlined />}
                aria-label={t('app.menu')}
                data-testid="nav-toggle"
                onClick={() => setDrawerOpen(true)}
              />
            )}
            <span className="club-name" dir="auto" title={club.name} data-testid="club-name">
              {club.name}
            </span>
          </Space>
          <Space size="middle" className="header-end">
            <LiveIndicator />
            {isOperator && (
              <Link to={OPERATOR_MESSAGES_ROUTE} data-testid="operator-messages" className="hide-phone">
                {t('messages.operatorLink')}
              </Link>
            )}
            <MessageBell />
            <span className="hide-phone user-name" data-testid="user-name">
              <UserOutlined /> {user.name || user.username}
            </span>
            <LanguageSwitch />
            <Tooltip title={t('app.logout')}>
              <Button
                size="small"
                icon={<LogoutOutlined />}
                onClick={logout}
                data-testid="logout"
                aria-label={t('app.logout')}
              />
            </Tooltip>
          </Space>
        </Layout.Header>
        <Layout.Content className="app-content" id="main-content" tabIndex={-1}>
          <OfflineBanner />
          <SafetyBanner />
          <LicensesLive />
          {isOperator && <OperatorBanner club={club} />}
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
