/**
 * The shape every locale's phrases must have: `en`'s, the reference (STYLE §16). A file of its
 * own, so that the locale files import the type from here and not from the index that
 * imports them.
 */
import type { en } from './en/index.js';

export type Phrases = typeof en;
