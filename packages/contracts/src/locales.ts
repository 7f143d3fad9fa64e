/** Locale files (SPEC §1) plus zh-TW from the switcher. `en` is the reference. */
export const LOCALES = ['zh-CN', 'zh-TW', 'en', 'ja', 'fr', 'de', 'es', 'it', 'pt', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';
export const RTL_LOCALES: readonly Locale[] = ['ar'];

/** What the language switcher offers, mapped to locale files (SPEC §1). */
export const SWITCHER_LANGUAGES = [
  { tag: 'zh-CN', locale: 'zh-CN', label: '简体中文' },
  { tag: 'zh-TW', locale: 'zh-TW', label: '繁體中文' },
  { tag: 'en-US', locale: 'en', label: 'English' },
  { tag: 'pt-BR', locale: 'pt', label: 'Português' },
  { tag: 'ja', locale: 'ja', label: '日本語' },
  { tag: 'fr', locale: 'fr', label: 'Français' },
  { tag: 'de', locale: 'de', label: 'Deutsch' },
  { tag: 'es', locale: 'es', label: 'Español' },
  { tag: 'it', locale: 'it', label: 'Italiano' },
  { tag: 'ar', locale: 'ar', label: 'العربية' },
] as const;

/** Best locale for a language tag or an Accept-Language header. */
export function resolveLocale(input: string | undefined | null): Locale {
  if (!input) return DEFAULT_LOCALE;
  const tags = input
    .split(',')
    .map((part) => part.split(';')[0]!.trim())
    .filter(Boolean);
  for (const raw of tags) {
    const tag = raw.toLowerCase();
    if (tag === 'zh-tw' || tag === 'zh-hk' || tag === 'zh-hant' || tag.startsWith('zh-hant')) return 'zh-TW';
    if (tag.startsWith('zh')) return 'zh-CN';
    const base = tag.split('-')[0]!;
    const hit = LOCALES.find((l) => l.toLowerCase() === base);
    if (hit) return hit;
  }
  return DEFAULT_LOCALE;
}
