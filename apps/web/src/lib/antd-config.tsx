/**
 * antd's ConfigProvider as every antd subtree of the console uses it: theme from the page
 * settings, antd's and dayjs's texts for the active locale, direction (Arabic is RTL), and
 * popups rendered into #overlays. antd's runtime <style> tags need no nonce: the CSP allows
 * inline styles, never inline scripts (SECURITY.md A-41, platform/security-headers.ts).
 */
import type { Locale } from '@umbo/contracts/locales';
import ConfigProvider from 'antd/es/config-provider';
import type { Locale as AntdLocale } from 'antd/es/locale';
import theme from 'antd/es/theme';
import { use, useDeferredValue, type ReactNode } from 'react';
import { useLocaleState } from './i18n';
import { useSettings } from './settings';
import { textShade } from './text-color';

const loaders: Record<Locale, () => Promise<{ default: () => AntdLocale }>> = {
  'zh-CN': () => import('./antd-locale/zh-CN'),
  'zh-TW': () => import('./antd-locale/zh-TW'),
  en: () => import('./antd-locale/en'),
  ja: () => import('./antd-locale/ja'),
  fr: () => import('./antd-locale/fr'),
  de: () => import('./antd-locale/de'),
  es: () => import('./antd-locale/es'),
  it: () => import('./antd-locale/it'),
  pt: () => import('./antd-locale/pt'),
  ar: () => import('./antd-locale/ar'),
};

// One promise per locale, so that use() suspends once and then reads the settled value.
const loading = new Map<Locale, Promise<() => AntdLocale>>();

function antdLocale(locale: Locale): Promise<() => AntdLocale> {
  let p = loading.get(locale);
  if (!p) {
    p = loaders[locale]().then((m) => m.default);
    loading.set(locale, p);
  }
  return p;
}

/** The shell's top bar; a list table's header stays in view below it (components/data-table.tsx). */
export const SHELL_HEADER_HEIGHT = 54;

/** Popups and dialogs go to #overlays, not <body>: see the comment in index.html. */
function overlayContainer(): HTMLElement {
  return document.getElementById('overlays') ?? document.body;
}

/** antd's tertiary grey (labels, descriptions, empty states) is 3.4:1 on white; this is 5.7:1. */
const GREY_TEXT = { colorTextTertiary: 'rgba(0, 0, 0, 0.6)', colorTextDescription: 'rgba(0, 0, 0, 0.6)', colorTextPlaceholder: 'rgba(0, 0, 0, 0.5)' };
/** The same for antd's red (#ff4d4f, 3.3:1): danger buttons, menu items and field errors. */
const LIGHT_ERROR = { colorError: textShade('#ff4d4f') };

export function AntdConfig({ children }: { children: ReactNode }) {
  const settings = useSettings();
  const { locale, direction } = useLocaleState();
  // Deferred: on a language switch the screen keeps antd's previous texts until the new
  // ones have loaded, instead of suspending the whole console into a spinner.
  const deferredLocale = useDeferredValue(locale);
  const activate = use(antdLocale(deferredLocale));
  const dark = settings.navTheme === 'realDark';
  // Text in the primary colour needs 4.5:1 (issue 10): links, selected tabs and menu items and
  // the white label on a primary button use a darker shade; fills and icons keep the colour.
  const text = dark ? settings.color : textShade(settings.color);
  return (
    <ConfigProvider
      locale={activate()}
      direction={direction}
      getPopupContainer={overlayContainer}
      theme={{
        algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: {
          colorPrimary: settings.color,
          colorLink: text,
          colorLinkHover: settings.color,
          colorLinkActive: text,
          borderRadius: 4,
          ...(dark ? {} : { ...GREY_TEXT, ...LIGHT_ERROR }),
        },
        components: {
          Layout: { headerHeight: SHELL_HEADER_HEIGHT, headerPadding: '0 16px' },
          // antd lightens a primary button under the pointer (white on #4096ff is 3.1:1): darken it instead
          Button: { colorPrimary: text, colorPrimaryActive: text, colorLink: text, ...(dark ? {} : { colorPrimaryHover: textShade(settings.color, 7) }) },
          Tabs: { itemSelectedColor: text, itemActiveColor: text },
          Menu: { itemSelectedColor: text, horizontalItemSelectedColor: text, darkItemSelectedBg: text },
        },
      }}
    >
      {children}
    </ConfigProvider>
  );
}
