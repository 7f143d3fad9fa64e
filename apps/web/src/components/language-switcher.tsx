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
      <Button type="text" className={className} icon={<GlobalOutlined />} aria-label={t('shell.language')} data-testid="language-switcher">
        {current?.label}
      </Button>
    </Dropdown>
  );
}
