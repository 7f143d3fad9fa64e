/**
 * Layout of the public pages (sign-in, registration, recovery, errors), in plain HTML so the
 * sign-in page stays light. Login, registry, retrieve, reset and loginByFToken hide the header
 * (SPEC §2). The shared cloud header is never loaded here: no third-party script where
 * credentials are typed (SECURITY.md AS-16).
 */
import { HOME_PATH, SIGN_IN_PATH } from '@umbo/contracts/routes';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { LanguageSelect } from '../components/language-select';
import { Logo } from '../components/logo';
import { useRouteMeta } from '../components/use-route-meta';
import { getToken } from '../lib/token';
import { useSiteTitle } from './document-title';

export function PublicLayout() {
  const { t } = useTranslation();
  const route = useRouteMeta();
  const site = useSiteTitle();
  const onSignIn = route?.name === 'loginSSO' || route?.name === 'login';
  return (
    <div className="user-layout">
      <div className="user-layout__top">
        {!onSignIn &&
          (getToken() ? (
            <Link className="plain-link" to={`${HOME_PATH}?displayServiceAccount=false&displayClient=false`}>
              {t('shell.personal_center')}
            </Link>
          ) : (
            <Link className="plain-link" to={SIGN_IN_PATH} data-testid="login-entry">
              {t('shell.login')}
            </Link>
          ))}
        <LanguageSelect />
      </div>
      <main className={onSignIn ? 'user-layout__main' : 'user-layout__main user-layout__main--wide'}>
        {!route?.hideHeader && (
          <header className="user-layout__header">
            <div className="user-layout__brand">
              <Logo size={40} />
              <h1 className="user-layout__title">{site}</h1>
            </div>
            <p className="user-layout__subtitle">{t('login.subtitle')}</p>
          </header>
        )}
        <Outlet />
      </main>
      <footer className="user-layout__footer">umbo</footer>
    </div>
  );
}
