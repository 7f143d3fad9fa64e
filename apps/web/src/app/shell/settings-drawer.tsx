/**
 * The page settings drawer (SPEC §2-§3): nav theme, primary colour, layout, content width,
 * fixed header and sidebar, auto-hide header, colour weak, multi-tab. Every change is stored
 * under its SPEC §3 key at once. A lazy chunk: most visits never open it.
 */
import { CheckOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Divider from 'antd/es/divider';
import Drawer from 'antd/es/drawer';
import Radio from 'antd/es/radio';
import Switch from 'antd/es/switch';
import Tooltip from 'antd/es/tooltip';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocaleState } from '../../lib/i18n';
import { PRIMARY_COLORS, resetSettings, setSetting, useSettings, type PageSettings } from '../../lib/settings';

function Row({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="settings__row">
      <span className="settings__label">
        {label}
        {hint && <span className="settings__hint">{hint}</span>}
      </span>
      {children}
    </div>
  );
}

function Toggle({
  name,
  label,
  disabled,
}: {
  name: 'fixedHeader' | 'fixedSidebar' | 'autoHideHeader' | 'weak' | 'multiTab';
  label: string;
  disabled?: boolean;
}) {
  const settings = useSettings();
  return (
    <Switch
      size="small"
      checked={settings[name]}
      disabled={disabled}
      onChange={(v) => setSetting(name, v)}
      aria-label={label}
      data-testid={`setting-${name}`}
    />
  );
}

export default function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const s = useSettings();
  // The drawer comes in from the reading end: the right, or the left in Arabic (RTL).
  const { direction } = useLocaleState();
  return (
    <Drawer
      title={t('settings.title')}
      open={open}
      onClose={onClose}
      size={320}
      placement={direction === 'rtl' ? 'left' : 'right'}
      data-testid="settings-drawer"
    >
      <h4 className="settings__section">{t('settings.nav_theme')}</h4>
      <Radio.Group
        value={s.navTheme}
        onChange={(e) => setSetting('navTheme', e.target.value as PageSettings['navTheme'])}
        orientation="vertical"
        options={[
          { value: 'dark', label: t('settings.theme_dark') },
          { value: 'light', label: t('settings.theme_light') },
          { value: 'realDark', label: t('settings.theme_real_dark') },
        ]}
      />

      <h4 className="settings__section">{t('settings.primary_color')}</h4>
      <div className="settings__colors">
        {PRIMARY_COLORS.map((c) => (
          <Tooltip key={c.color} title={t(`settings.${c.key}`)}>
            <button
              type="button"
              className="settings__swatch"
              style={{ background: c.color }}
              aria-label={t(`settings.${c.key}`)}
              aria-pressed={s.color === c.color}
              onClick={() => setSetting('color', c.color)}
            >
              {s.color === c.color && <CheckOutlined />}
            </button>
          </Tooltip>
        ))}
      </div>

      <Divider />
      <h4 className="settings__section">{t('settings.navigation_mode')}</h4>
      <Radio.Group
        value={s.layout}
        onChange={(e) => setSetting('layout', e.target.value as PageSettings['layout'])}
        orientation="vertical"
        options={[
          { value: 'sidemenu', label: t('settings.layout_side') },
          { value: 'topmenu', label: t('settings.layout_top') },
        ]}
      />
      <Row label={t('settings.content_width')}>
        <Radio.Group
          size="small"
          value={s.contentWidth}
          onChange={(e) => setSetting('contentWidth', e.target.value as PageSettings['contentWidth'])}
          optionType="button"
          options={[
            { value: 'Fluid', label: t('settings.content_fluid') },
            { value: 'Fixed', label: t('settings.content_fixed') },
          ]}
        />
      </Row>
      <Row label={t('settings.fixed_header')}>
        <Toggle name="fixedHeader" label={t('settings.fixed_header')} />
      </Row>
      <Row label={t('settings.auto_hide_header')} hint={s.fixedHeader ? undefined : t('settings.auto_hide_header_hint')}>
        <Toggle name="autoHideHeader" label={t('settings.auto_hide_header')} disabled={!s.fixedHeader} />
      </Row>
      <Row label={t('settings.fixed_sidebar')} hint={s.layout === 'sidemenu' ? undefined : t('settings.fixed_sidebar_hint')}>
        <Toggle name="fixedSidebar" label={t('settings.fixed_sidebar')} disabled={s.layout !== 'sidemenu'} />
      </Row>

      <Divider />
      <h4 className="settings__section">{t('settings.other')}</h4>
      <Row label={t('settings.weak')}>
        <Toggle name="weak" label={t('settings.weak')} />
      </Row>
      <Row label={t('settings.multi_tab')}>
        <Toggle name="multiTab" label={t('settings.multi_tab')} />
      </Row>
      <Divider />
      <Button block onClick={resetSettings}>
        {t('settings.reset')}
      </Button>
    </Drawer>
  );
}
