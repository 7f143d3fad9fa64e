/** The language switcher (SPEC §1): the switcher tags first, then the other locale files. */
import { GlobalOutlined } from '@ant-design/icons';
import { SWITCHER_LANGUAGES } from '@umbo/contracts/locales';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import { useTranslation } from 'react-i18next';
import { setLanguage, useLocaleState } from '../lib/i18n';

export function LanguageSwitcher({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { tag } = useLocaleState();
  const current = SWITCHER_LANGUAGES.find((l) => l.tag === tag);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [tag],
        items: SWITCHER_LANGUAGES.map((l) => ({ key: l.tag, label: <span lang={l.tag}>{l.label}</span> })),
        onClick: ({ key }) => void setLanguage(key),
      }}
    >
      <Button
        type="text"
        className={className}
        icon={<GlobalOutlined />}
        aria-label={current ? `${current.label} (${t('shell.language')})` : t('shell.language')}
        data-testid="language-switcher"
      >
        {/* The name starts with the shown text (WCAG 2.5.3); on a phone only the globe shows. */}
        <span className="language-switcher__label">{current?.label}</span>
      </Button>
    </Dropdown>
  );
}
