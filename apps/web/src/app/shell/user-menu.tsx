/**
 * The top bar's account entry (SPEC §2 "Shell"): the name from user.do, the personal center,
 * page settings and logout after the SPEC's confirmation text; a login entry when nobody is
 * signed in.
 */
import { LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import type { CurrentUser } from '@umbo/contracts/permissions';
import { HOME_PATH, SIGN_IN_PATH } from '@umbo/contracts/routes';
import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { confirm } from '../../lib/feedback';
import { useIotUserName } from '../../lib/session/get-iot-user-name';
import { logout } from '../../lib/session/logout';

export const PERSONAL_CENTER = `${HOME_PATH}?displayServiceAccount=false&displayClient=false`;

export function UserMenu({ user, onOpenSettings }: { user: CurrentUser | undefined; onOpenSettings: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const name = useIotUserName(user?.id);

  if (!user) {
    return (
      <Link to={SIGN_IN_PATH} data-testid="login-entry">
        <Button type="link">{t('shell.login')}</Button>
      </Link>
    );
  }

  const askLogout = () =>
    confirm({
      title: t('shell.logout'),
      content: t('shell.logout_confirm'),
      // A full load of the sign-in page: nothing cached for this account survives (SPEC §4).
      onOk: () => logout().finally(() => window.location.replace(SIGN_IN_PATH)),
    });

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'center', icon: <UserOutlined />, label: t('shell.personal_center') },
          { key: 'settings', icon: <SettingOutlined />, label: t('shell.settings') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('shell.logout'), danger: true },
        ],
        onClick: ({ key }) => {
          if (key === 'center') navigate(PERSONAL_CENTER);
          else if (key === 'settings') onOpenSettings();
          else if (key === 'logout') askLogout();
        },
      }}
    >
      <Button type="text" className="shell__user" data-testid="user-menu">
        <Avatar size="small" src={user.avatar || undefined} icon={<UserOutlined />} />
        <span className="shell__user-name" data-testid="user-name">
          {name.data || ''}
        </span>
      </Button>
    </Dropdown>
  );
}
