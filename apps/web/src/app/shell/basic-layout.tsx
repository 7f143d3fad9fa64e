/**
 * The signed-in shell (SPEC §2 "Shell"): shared cloud header area, side or top menu of the
 * current area, top bar, multi-tab bar and the routed screen, all following the page settings.
 */
import type { MenuArea } from '@umbo/contracts/routes';
import Layout from 'antd/es/layout';
import { useState } from 'react';
import { useNavigate, Navigate, Outlet, useLocation } from 'react-router';
import { ChunkErrorPage } from '../../components/chunk-error';
import { Logo } from '../../components/logo';
import { PageLoading } from '../../components/page-loading';
import { useAccount } from '../../features/me/api/get-account';
import { useRouteMeta } from '../../components/use-route-meta';
import { setSetting, useSettings } from '../../lib/settings';
import { lazyScreen } from '../lazy-screen';
import { useSiteTitle } from '../document-title';
import { ExceptionPage } from '../exception-screen';
import { CloudHeader } from './cloud-header';
import { AreaSwitch, GlobalHeader } from './global-header';
import { areaHome, areasFor, canOpen } from './menu-model';
import { MultiTab } from './multi-tab';
import type { Tab } from './tabs-model';
import { NavMenu } from './nav-menu';
import { useSession } from './use-session';
import { useAutoHideHeader, useMobileDetection, usePreloadListScreens } from './use-shell-effects';

const SettingsDrawer = lazyScreen(() => import('./settings-drawer'), null);
const FORCE_PASSWORD_PATH = '/account/security';

export default function BasicLayout() {
  const settings = useSettings();
  const route = useRouteMeta();
  const location = useLocation();
  const navigate = useNavigate();
  const site = useSiteTitle();
  const { user, failed, retry } = useSession();
  // SPEC §3 force_password: until the password is changed, every page leads to that form.
  const forcePassword = useAccount().data?.forcePassword === true;
  const [settingsOpened, setSettingsOpened] = useState<boolean | undefined>(undefined);
  // On a phone the menu is an overlay, closed by default; the stored sidebar_type is the
  // desktop preference and stays untouched.
  const [mobileOpen, setMobileOpen] = useState(false);
  const [tabs, setTabs] = useState<Tab[]>([]);
  useMobileDetection();
  usePreloadListScreens(Boolean(user));
  const headerHidden = useAutoHideHeader(settings.fixedHeader && settings.autoHideHeader);

  if (failed) return <ChunkErrorPage onRetry={retry} />;
  if (!user) return <PageLoading full />;

  const areas = areasFor(user);
  // A route of an area the user has nothing in (a 403 on a domain page) shows the menu of an
  // area they do have, not an empty one (issue 10).
  const area: MenuArea = route?.area && areas.includes(route.area) ? route.area : (areas[0] ?? 'user');
  const onArea = (next: MenuArea) => {
    const home = areaHome(next, user);
    if (home) navigate(home);
  };
  const dark = settings.navTheme !== 'light';
  const menuTheme = dark ? 'dark' : 'light';
  const side = settings.layout === 'sidemenu';
  const collapsed = settings.isMobile ? !mobileOpen : !settings.sidebarOpen;
  const toggle = () => (settings.isMobile ? setMobileOpen(!mobileOpen) : setSetting('sidebarOpen', collapsed));
  const closeOnMobile = () => setMobileOpen(false);
  const openSettings = () => setSettingsOpened(true);

  const headerClass = [
    'shell__header',
    side ? '' : 'shell__header--top',
    settings.fixedHeader ? 'shell__header--fixed' : '',
    headerHidden ? 'shell__header--hidden' : '',
  ].join(' ');

  const header = (
    <GlobalHeader
      className={headerClass}
      user={user}
      area={area}
      areas={areas}
      onArea={onArea}
      dark={!side && dark}
      collapsed={side ? collapsed : undefined}
      onToggle={side ? toggle : undefined}
      start={
        side ? undefined : (
          <>
            <div className="shell__logo shell__logo--top">
              <Logo size={28} />
              <span className="shell__site">{site}</span>
            </div>
            <NavMenu area={area} user={user} selected={location.pathname} mode="horizontal" theme={menuTheme} />
          </>
        )
      }
      onOpenSettings={openSettings}
      phone={side && settings.isMobile}
    />
  );

  const content = (
    <>
      {settings.multiTab && <MultiTab route={route} tabs={tabs} setTabs={setTabs} />}
      <Layout.Content className="shell__content">
        <div className={settings.contentWidth === 'Fixed' ? 'shell__page shell__page--fixed' : 'shell__page'}>
          {forcePassword && route?.name !== 'security' ? (
            <Navigate to={{ pathname: FORCE_PASSWORD_PATH, search: location.search }} replace />
          ) : route && !canOpen(route, user) ? (
            <ExceptionPage status="403" />
          ) : (
            <Outlet />
          )}
        </div>
      </Layout.Content>
    </>
  );

  return (
    <Layout className="shell" data-layout={settings.layout} data-nav-theme={settings.navTheme}>
      <CloudHeader siteTitle={site} />
      {side ? (
        <Layout hasSider>
          <Layout.Sider
            className={[
              'shell__sider',
              settings.fixedSidebar ? 'shell__sider--fixed' : '',
              settings.isMobile && !collapsed ? 'shell__sider--overlay' : '',
            ].join(' ')}
            theme={menuTheme}
            width={256}
            collapsedWidth={settings.isMobile ? 0 : 80}
            collapsed={collapsed}
            trigger={null}
            collapsible
          >
            <div className="shell__logo">
              <Logo size={28} />
              {!collapsed && <span className="shell__site">{site}</span>}
            </div>
            {/* Keyed by area: each area's menu opens its own groups when it appears. A closed
                phone menu is not rendered at all, or its groups would pop out on hover. */}
            {settings.isMobile && !collapsed && areas.length > 1 && (
              <AreaSwitch area={area} areas={areas} onArea={onArea} className="shell__areas shell__areas--sider" />
            )}
            {!(settings.isMobile && collapsed) && (
              <NavMenu key={area} area={area} user={user} selected={location.pathname} mode="inline" theme={menuTheme} onNavigate={closeOnMobile} />
            )}
          </Layout.Sider>
          {settings.isMobile && mobileOpen && <div className="shell__backdrop" onClick={closeOnMobile} aria-hidden="true" />}
          <Layout className="shell__main">
            {header}
            {content}
          </Layout>
        </Layout>
      ) : (
        <Layout className="shell__main">
          {header}
          {content}
        </Layout>
      )}
      {settingsOpened !== undefined && <SettingsDrawer open={settingsOpened} onClose={() => setSettingsOpened(false)} />}
    </Layout>
  );
}
