/** The menu of the current area (SPEC §2), inline in the side menu or horizontal on top. */
import {
  DashboardOutlined,
  KeyOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  ToolOutlined,
  UserOutlined,
  GlobalOutlined,
  IdcardOutlined,
} from '@ant-design/icons';
import type { CurrentUser } from '@umbo/contracts/permissions';
import type { MenuArea, MenuGroup } from '@umbo/contracts/routes';
import Menu from 'antd/es/menu';
import type { MenuProps } from 'antd/es/menu';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { menuSections } from './menu-model';

const GROUP_ICONS: Record<MenuGroup, ReactNode> = {
  group_dashboard: <DashboardOutlined />,
  group_account: <UserOutlined />,
  group_domain: <GlobalOutlined />,
  group_cert: <SafetyCertificateOutlined />,
};

const ROUTE_ICONS: Record<string, ReactNode> = {
  center: <IdcardOutlined />,
  security: <SafetyOutlined />,
  keys: <KeyOutlined />,
  tools: <ToolOutlined />,
};

interface Props {
  area: MenuArea;
  user: CurrentUser;
  selected: string | undefined;
  mode: 'inline' | 'horizontal';
  theme: 'dark' | 'light';
  onNavigate?: () => void;
}

export function NavMenu({ area, user, selected, mode, theme, onNavigate }: Props) {
  const { t } = useTranslation();
  const sections = menuSections(area, user);
  const items: MenuProps['items'] = sections.map((section) => ({
    key: section.group,
    icon: GROUP_ICONS[section.group],
    label: t(`menu.${section.group}`),
    children: section.routes.map((route) => ({
      key: route.path,
      icon: ROUTE_ICONS[route.name],
      label: (
        <Link to={route.path} onClick={onNavigate}>
          {t(`menu.${route.title}`)}
        </Link>
      ),
    })),
  }));
  return (
    <Menu
      data-testid="nav-menu"
      mode={mode}
      theme={theme}
      items={items}
      selectedKeys={selected ? [selected] : []}
      defaultOpenKeys={mode === 'inline' ? sections.map((s) => s.group) : undefined}
      className={mode === 'horizontal' ? 'shell__top-menu' : undefined}
    />
  );
}
