/**
 * i18next over the contracts phrases. Only the active locale is loaded (a dynamic import per
 * locale); antd's and dayjs's texts follow in lib/antd-config.tsx. Arabic turns the page RTL.
 */
import { DEFAULT_LOCALE, LOCALES, resolveLocale, RTL_LOCALES, SWITCHER_LANGUAGES, type Locale } from '@umbo/contracts/locales';
import i18next from 'i18next';
import { useSyncExternalStore } from 'react';
import { initReactI18next } from 'react-i18next';
import { readStored, STORAGE_KEYS, writeStored } from '../storage';
import type { Phrases } from '@umbo/contracts/phrases/types';

const loaders: Record<Locale, () => Promise<{ default: Phrases }>> = {
  'zh-CN': () => import('./locales/zh-CN'),
  'zh-TW': () => import('./locales/zh-TW'),
  en: () => import('./locales/en'),
  ja: () => import('./locales/ja'),
  fr: () => import('./locales/fr'),
  de: () => import('./locales/de'),
  es: () => import('./locales/es'),
  it: () => import('./locales/it'),
  pt: () => import('./locales/pt'),
  ar: () => import('./locales/ar'),
};

export interface LocaleState {
  /** The language tag the user chose (switcher tag), sent as Accept-Language. */
  tag: string;
  locale: Locale;
  direction: 'ltr' | 'rtl';
}

let state: LocaleState = { tag: DEFAULT_LOCALE, locale: DEFAULT_LOCALE, direction: 'ltr' };
const listeners = new Set<() => void>();

/** The switcher tag for a stored tag or a bare locale (e.g. `en` → `en-US`). */
export function normaliseTag(tag: string): { tag: string; locale: Locale } {
  const exact = SWITCHER_LANGUAGES.find((l) => l.tag.toLowerCase() === tag.toLowerCase());
  if (exact) return { tag: exact.tag, locale: exact.locale };
  const locale = resolveLocale(tag);
  return { tag: SWITCHER_LANGUAGES.find((l) => l.locale === locale)?.tag ?? locale, locale };
}

/** The switcher tag for `tag` when umbo has its language (`ko` has none: undefined). */
function supportedTag(tag: string | null | undefined): string | undefined {
  if (!tag) return undefined;
  const base = tag.trim().toLowerCase().split('-')[0]!;
  if (!LOCALES.some((l) => l.toLowerCase().split('-')[0] === base)) return undefined;
  return normaliseTag(tag.trim()).tag;
}

export interface LanguageSources {
  /** the address's query string: `lang` is a login-session field an OAuth client passes (SPEC §3) */
  search: string;
  /** the browser's languages, i.e. its Accept-Language */
  browser: readonly string[];
}

function browserSources(): LanguageSources {
  return { search: window.location.search, browser: navigator.languages ?? [navigator.language] };
}

/**
 * The first language umbo has, in this order (issue 10): `?lang=` in the address, the choice
 * saved from the switcher (SPEC §3 `app_language`), the browser's languages, the configured
 * default, then zh-CN (SPEC §1). `?lang=` is not saved: it speaks for the client that sent
 * the visitor, not for the visitor.
 */
export function initialLanguageTag(configDefault: string, sources: LanguageSources = browserSources()): string {
  const candidates = [new URLSearchParams(sources.search).get('lang'), readStored<string>(STORAGE_KEYS.language), ...sources.browser, configDefault];
  for (const candidate of candidates) {
    const tag = supportedTag(candidate);
    if (tag) return tag;
  }
  return normaliseTag(DEFAULT_LOCALE).tag;
}

/** Starts fetching a locale chunk early; the module loader keeps the answer for apply(). */
export function preloadLanguage(tag: string): void {
  void loaders[normaliseTag(tag).locale]().catch(() => undefined);
}

async function apply(tag: string): Promise<void> {
  const next = normaliseTag(tag);
  const phrases = (await loaders[next.locale]()).default;
  if (!i18next.hasResourceBundle(next.locale, 'translation')) {
    i18next.addResourceBundle(next.locale, 'translation', phrases);
  }
  await i18next.changeLanguage(next.locale);
  const direction = RTL_LOCALES.includes(next.locale) ? 'rtl' : 'ltr';
  document.documentElement.lang = next.tag;
  document.documentElement.dir = direction;
  state = { tag: next.tag, locale: next.locale, direction };
  for (const listener of listeners) listener();
}

export async function initI18n(tag: string): Promise<void> {
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: normaliseTag(tag).locale,
    // Every locale is complete (typed against en), so there is nothing to fall back to.
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await apply(tag);
}

/** Switches the language and remembers the choice (SPEC §3 `app_language`). */
export async function setLanguage(tag: string): Promise<void> {
  await apply(tag);
  writeStored(STORAGE_KEYS.language, state.tag);
}

export function localeState(): LocaleState {
  return state;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLocaleState(): LocaleState {
  return useSyncExternalStore(subscribe, localeState);
}

export { i18next as i18n };
