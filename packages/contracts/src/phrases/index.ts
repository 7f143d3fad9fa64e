/**
 * Phrases per locale (STYLE §16): `en` is the reference; every other locale is typed
 * against it, so a missing key fails to compile. One file per area per locale.
 */
import type { Locale } from '../locales.js';
import { ar } from './ar/index.js';
import { de } from './de/index.js';
import { en } from './en/index.js';
import { es } from './es/index.js';
import { fr } from './fr/index.js';
import { it } from './it/index.js';
import { ja } from './ja/index.js';
import { pt } from './pt/index.js';
import { zhCN } from './zh-CN/index.js';
import { zhTW } from './zh-TW/index.js';
import type { Phrases } from './types.js';

export type { Phrases } from './types.js';

export const phrases: Record<Locale, Phrases> = {
  'zh-CN': zhCN,
  'zh-TW': zhTW,
  en,
  ja,
  fr,
  de,
  es,
  it,
  pt,
  ar,
};
