/**
 * The language switcher of the public pages (SPEC §1): a native <select>, which costs nothing
 * on the sign-in page. The shell uses the antd dropdown in language-switcher.tsx.
 */
import { SWITCHER_LANGUAGES } from '@umbo/contracts/locales';
import { useTranslation } from 'react-i18next';
import { setLanguage, useLocaleState } from '../lib/i18n';

export function LanguageSelect() {
  const { t } = useTranslation();
  const { tag } = useLocaleState();
  return (
    <label className="language-select">
      <span className="visually-hidden">{t('shell.language')}</span>
      <select value={tag} onChange={(e) => void setLanguage(e.target.value)} data-testid="language-select">
        {SWITCHER_LANGUAGES.map((l) => (
          <option key={l.tag} value={l.tag} lang={l.tag}>
            {l.label}
          </option>
        ))}
      </select>
    </label>
  );
}
