/** The card of the light public screens: realm logo, title, body and the way back to sign-in. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SIGN_IN_PATH } from '@umbo/contracts/routes';
import { withLoginSession } from '../lib/login-session';
import { RealmLogo } from './realm-logo';

/** `logo`: the realm's logo URL from its auth options, when the screen has them. */
export function PublicCard({ title, children, testId, logo }: { title: string; children: ReactNode; testId: string; logo?: string | undefined }) {
  const { t } = useTranslation();
  return (
    <section className="login-card login-card--narrow" data-testid={testId}>
      <RealmLogo src={logo} />
      <h2 className="login-card__title">{title}</h2>
      {children}
      <div className="login-card__links">
        <Link className="plain-link" to={withLoginSession(SIGN_IN_PATH)} data-testid="back-to-login">
          {t('flows.back_to_login')}
        </Link>
      </div>
    </section>
  );
}

export function Loading() {
  return <div className="plain-loading" role="status" aria-busy="true" />;
}
