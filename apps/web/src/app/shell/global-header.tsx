/**
 * The built-in top bar: menu toggle (side layout) or the horizontal menu (top layout), the
 * area switch, language, page settings and the account entry.
 */
import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import type { MenuArea } from '@umbo/contracts/routes';
import Button from 'antd/es/button';
import Layout from 'antd/es/layout';
import Segmented from 'antd/es/segmented';
import antTheme from 'antd/es/theme';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '../../components/language-switcher';
import type { CurrentUser } from '@umbo/contracts/permissions';
import { UserMenu } from './user-menu';

interface Props {
  user: CurrentUser | undefined;
  area: MenuArea;
  areas: MenuArea[];
  onArea: (area: MenuArea) => void;
  /** Side layout: the menu toggle. */
  collapsed?: boolean;
  onToggle?: () => void;
  /** Top layout: logo and horizontal menu. */
  start?: ReactNode;
  dark: boolean;
  className: string;
  onOpenSettings: () => void;
  /** Phone width with the side menu: the area switch moves into the menu drawer. */
  phone?: boolean;
}

/** The user/domain area switch: in the top bar, or on a phone at the top of the menu drawer. */
export function AreaSwitch({ area, areas, onArea, className = 'shell__areas' }: Pick<Props, 'area' | 'areas' | 'onArea'> & { className?: string }) {
  const { t } = useTranslation();
  return (
    <Segmented<MenuArea>
      className={className}
      data-testid="area-switch"
      value={area}
      onChange={onArea}
      options={areas.map((a) => ({ value: a, label: t(a === 'user' ? 'menu.area_user' : 'menu.area_domain') }))}
    />
  );
}

export function GlobalHeader({ user, area, areas, onArea, collapsed, onToggle, start, dark, className, onOpenSettings, phone }: Props) {
  const { t } = useTranslation();
  const { token } = antTheme.useToken();
  return (
    <Layout.Header className={dark ? `${className} shell__header--dark` : className} style={dark ? undefined : { background: token.colorBgContainer }}>
      {onToggle && (
        <Button
          type="text"
          className="shell__trigger"
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          aria-label={collapsed ? t('shell.expand') : t('shell.collapse')}
          onClick={onToggle}
        />
      )}
      {start}
      {areas.length > 1 && !phone && <AreaSwitch area={area} areas={areas} onArea={onArea} />}
      <div className="shell__header-actions">
        <UserMenu user={user} onOpenSettings={onOpenSettings} />
        <LanguageSwitcher />
        <Button type="text" icon={<SettingOutlined />} aria-label={t('shell.settings')} onClick={onOpenSettings} data-testid="open-settings" />
      </div>
    </Layout.Header>
  );
}
