/** Preferences stored with the account: language, theme, colour and notifications. */
import Card from 'antd/es/card';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import { SWITCHER_LANGUAGES } from '@umbo/contracts/locales';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { setLanguage, useLocaleState } from '../../../lib/i18n';
import { PRIMARY_COLORS } from '../../../lib/settings';
import { useAccountSettings } from '../api/get-settings';
import { useUpdateSettings, type SettingsPatch } from '../api/update-settings';

/** Security notices only: umbo sends no product mail, so it offers no such switch. */
const NOTIFICATIONS = ['securityEmail', 'securitySms'] as const;
const PHRASE = { securityEmail: 'notify_security_email', securitySms: 'notify_security_sms' } as const;

export function PreferencesCard() {
  const { t } = useTranslation();
  const { data } = useAccountSettings();
  const update = useUpdateSettings();
  // The language shown is the one in use (issue 10); choosing one saves it and switches to it.
  const { locale } = useLocaleState();
  const save = (patch: SettingsPatch) => update.mutate(patch, { onSuccess: () => showInfo((say) => say('account.saved')) });
  return (
    <Card title={t('account.settings_custom')} loading={!data} data-testid="preferences-card">
      {data && (
        <Form layout="vertical" style={{ maxWidth: 420 }}>
          <Form.Item label={t('account.language')} htmlFor="pref-language">
            <Select
              id="pref-language"
              value={locale}
              onChange={(language) => {
                const chosen = SWITCHER_LANGUAGES.find((l) => l.locale === language);
                if (chosen) void setLanguage(chosen.tag);
                save({ language });
              }}
              options={SWITCHER_LANGUAGES.map((l) => ({ value: l.locale, label: l.label }))}
            />
          </Form.Item>
          <Form.Item label={t('account.theme')} htmlFor="pref-theme">
            <Select
              id="pref-theme"
              value={data.theme}
              onChange={(theme) => save({ theme })}
              options={[
                { value: 'dark', label: t('account.theme_dark') },
                { value: 'light', label: t('account.theme_light') },
              ]}
            />
          </Form.Item>
          <Form.Item label={t('account.color')} htmlFor="pref-color">
            <Select
              id="pref-color"
              value={data.color.toLowerCase()}
              onChange={(color) => save({ color })}
              options={PRIMARY_COLORS.map((c) => ({
                value: c.color,
                label: (
                  <span>
                    <span className="color-swatch" style={{ background: c.color }} /> {t(`settings.${c.key}`)}
                  </span>
                ),
              }))}
            />
          </Form.Item>
          <Form.Item label={t('account.notifications')}>
            {NOTIFICATIONS.map((key) => (
              <div key={key}>
                <Checkbox checked={data.notifications[key]} onChange={(e) => save({ notifications: { [key]: e.target.checked } })}>
                  {t(`account.${PHRASE[key]}`)}
                </Checkbox>
              </div>
            ))}
          </Form.Item>
        </Form>
      )}
    </Card>
  );
}
