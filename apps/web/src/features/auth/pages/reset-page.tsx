/**
 * /reset: the 24-character code from the reset mail (pasted, or from the link's ?code=, which
 * is then removed from the address bar) and a new password. The reset ends other sessions.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { resetPassword, useCall } from '../api/flows';
import { useRealmOptions } from '../api/use-realm-options';
import { checkPasswords, PasswordPair } from '../components/password-pair';
import { FormAlert, formValues, PlainField, SubmitButton } from '../components/plain-field';
import { PublicCard } from '../components/public-card';
import { isMailCode } from '@umbo/contracts/checks';
import { dropQueryParam, readQueryParam } from '../lib/take-query-param';

export default function ResetPage() {
  const { t } = useTranslation();
  const { realmId } = useRealmOptions();
  const [linkCode] = useState(() => readQueryParam('code'));
  useEffect(() => dropQueryParam('code'), []);
  const [errors, setErrors] = useState<{ code?: string; password?: string; confirm?: string }>({});
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const call = useCall((e) => setError(e.message));
  const form = 'reset';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const el = event.currentTarget;
    const code = formValues(el, 'code').code!;
    const pw = checkPasswords(el, t as never);
    const next = {
      code: !code ? t('validation.required') : isMailCode(code) ? undefined : t('validation.mail_code'),
      password: pw.password,
      confirm: pw.confirm,
    };
    setErrors(next);
    if (next.code || next.password || next.confirm) return;
    setError(undefined);
    if (await call.run(() => resetPassword({ code, password: pw.value }, realmId))) setDone(true);
  };

  return (
    <PublicCard title={t('flows.reset_title')} testId="reset-page">
      {done ? (
        <div className="plain-alert plain-alert--info" role="status" data-testid="reset-done">
          {t('flows.reset_done')}
        </div>
      ) : (
        <form className="plain-form" onSubmit={(e) => void submit(e)} noValidate data-testid="reset-form">
          <FormAlert error={error} testId={form} />
          <PlainField
            form={form}
            name="code"
            label={t('flows.reset_code')}
            autoComplete="off"
            maxLength={24}
            defaultValue={linkCode}
            error={errors.code}
            spellCheck={false}
          />
          <PasswordPair form={form} errors={errors} />
          <SubmitButton pending={call.pending} label={t('flows.reset_submit')} testId="reset-submit" />
        </form>
      )}
    </PublicCard>
  );
}
