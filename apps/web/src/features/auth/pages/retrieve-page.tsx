/** /retrieve (and /user/recover): recover a forgotten password by the realm's find-back methods. */
import { useTranslation } from 'react-i18next';
import { useRealmOptions } from '../api/use-realm-options';
import { MethodTabs, type Method } from '../components/method-tabs';
import { Loading, PublicCard } from '../components/public-card';
import { RetrieveEmailForm, RetrieveSmsForm } from '../components/retrieve-forms';

export default function RetrievePage() {
  const { t } = useTranslation();
  const { realmId, options, failed } = useRealmOptions();
  const regions = options?.loginRegions ?? [];
  const methods: Method[] = [];
  if (options?.findBackMethods.includes('email'))
    methods.push({
      key: 'email',
      label: t('flows.retrieve_by_email'),
      body: <RetrieveEmailForm realmId={realmId} regions={regions} captchaPolicy={options?.captchaPolicy} />,
    });
  if (options?.findBackMethods.includes('sms'))
    methods.push({
      key: 'sms',
      label: t('flows.retrieve_by_sms'),
      body: <RetrieveSmsForm realmId={realmId} regions={regions} captchaPolicy={options?.captchaPolicy} />,
    });
  return (
    <PublicCard title={t('flows.retrieve_title')} testId="retrieve-page" logo={options?.logo}>
      {options || failed ? <MethodTabs methods={methods} empty={t('flows.no_methods')} /> : <Loading />}
    </PublicCard>
  );
}
