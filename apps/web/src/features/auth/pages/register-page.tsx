/** /user/register and /registry: registration by email or SMS code, as the realm allows. */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRealmOptions } from '../api/use-realm-options';
import { Loading, PublicCard } from '../components/public-card';
import { MethodTabs, type Method } from '../components/method-tabs';
import { RegisterEmailForm, RegisterSmsForm } from '../components/register-forms';
import type { Registered } from '../api/flows';
import { withLoginSession } from '../lib/login-session';

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { realmId, options, failed } = useRealmOptions();
  // The address travels in the history state, not the query: it stays out of logs and referrers.
  const done = (r: Registered) =>
    navigate(withLoginSession(`/user/register-result${r.activationRequired ? '?activation=mail' : ''}`), {
      state: r.activationRequired && r.email ? { email: r.email } : undefined,
    });
  const methods: Method[] = [];
  const regions = options?.loginRegions ?? [];
  if (options?.registMethods.includes('email'))
    methods.push({
      key: 'email',
      label: t('flows.register_by_email'),
      body: <RegisterEmailForm realmId={realmId} regions={regions} captchaPolicy={options?.captchaPolicy} onRegistered={done} />,
    });
  if (options?.registMethods.includes('sms'))
    methods.push({
      key: 'sms',
      label: t('flows.register_by_sms'),
      body: <RegisterSmsForm realmId={realmId} regions={regions} captchaPolicy={options?.captchaPolicy} onRegistered={done} />,
    });
  return (
    <PublicCard title={t('flows.register_title')} testId="register-page" logo={options?.logo}>
      {options || failed ? <MethodTabs methods={methods} empty={t('flows.no_methods')} /> : <Loading />}
    </PublicCard>
  );
}
