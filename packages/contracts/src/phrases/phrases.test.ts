/**
 * Catalogue test (STYLE §9, §16): every locale carries exactly `en`'s keys in every area,
 * keeps its {{placeholders}}, is actually translated, and the error phrases match the
 * error codes (SPEC §8): no code without a message, no message for a vanished code.
 * Areas and locales are read from `phrases`, so a new area file is covered once it is
 * wired into the locale index files.
 */
import { describe, it, expect } from 'vitest';
import { ErrorCodes } from '../errors.js';
import { LOCALES } from '../locales.js';
import { phrases } from './index.js';

/** English values that may stay as they are in every language (brand and protocol words). */
/** Words a locale spells exactly as English does (Spanish and Italian 'No'). */
const SAME_IN_LOCALE: Partial<Record<string, readonly string[]>> = { es: ['No'], it: ['No'] };

const SAME_IN_EVERY_LANGUAGE = new Set([
  'umbo',
  'OAuth',
  'OpenID Connect',
  'OIDC',
  'OTP',
  'IP',
  'SMS',
  'Email',
  'URL',
  'ID',
  'OK',
  'CSR',
  'PEM',
  'X.509',
  'JWT',
  'JWKS',
  'PKCE',
  'API',
  'HTTP',
  'HTTPS',
  'Token',
  'Client ID',
]);

/** `errors` keys no code points at: SPEC §6 missing-permission texts and the field label. */
const EXTRA_ERROR_KEYS = ['permission_missing', 'permission_undefined', 'field'];

const en = phrases.en;
const locales = Object.keys(phrases) as (keyof typeof phrases)[];
const others = locales.filter((l) => l !== 'en');

/** Flattens a phrase tree to `area.key[.sub…]` → value; non-string leaves are kept as found. */
function flatten(node: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
    for (const [k, v] of Object.entries(node)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix, node);
  }
  return out;
}

function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([^{}\s]+)\s*\}\}/g)].map((m) => m[1]!))].sort();
}

/** Fails once, listing every problem, so all of them can be fixed in one pass. */
function expectNone(problems: string[], what: string): void {
  if (problems.length > 0) expect.fail(`${problems.length} ${what}:\n  ${problems.join('\n  ')}`);
}

const enFlat = flatten(en);

describe('phrases', () => {
  it('has a phrase table for every locale, and en has areas', () => {
    expect([...locales].sort()).toEqual([...LOCALES].sort());
    expect(Object.keys(en).length).toBeGreaterThan(0);
  });

  it('en values are non-empty strings', () => {
    const problems = [...enFlat].filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k, v]) => `en ${k}: ${JSON.stringify(v)}`);
    expectNone(problems, 'empty or non-string English values');
  });

  it('every locale has exactly the keys of en, each a non-empty string', () => {
    const problems: string[] = [];
    for (const locale of others) {
      const flat = flatten(phrases[locale]);
      for (const key of enFlat.keys()) if (!flat.has(key)) problems.push(`${locale} ${key}: missing`);
      for (const [key, value] of flat) {
        if (!enFlat.has(key)) problems.push(`${locale} ${key}: not in en`);
        else if (typeof value !== 'string' || value.trim() === '') problems.push(`${locale} ${key}: empty or not a string (${JSON.stringify(value)})`);
      }
    }
    expectNone(problems, 'key mismatches against en');
  });

  it('every value uses the same {{placeholders}} as en', () => {
    const problems: string[] = [];
    for (const locale of others) {
      const flat = flatten(phrases[locale]);
      for (const [key, enValue] of enFlat) {
        const value = flat.get(key);
        if (typeof enValue !== 'string' || typeof value !== 'string') continue;
        const want = placeholders(enValue).join(', ');
        const got = placeholders(value).join(', ');
        if (want !== got) problems.push(`${locale} ${key}: has [${got}], en has [${want}]`);
      }
    }
    expectNone(problems, 'placeholder mismatches');
  });

  it('no locale merely repeats the English text', () => {
    const problems: string[] = [];
    for (const locale of others) {
      const flat = flatten(phrases[locale]);
      for (const [key, enValue] of enFlat) {
        if (typeof enValue !== 'string' || flat.get(key) !== enValue) continue;
        if (SAME_IN_EVERY_LANGUAGE.has(enValue.trim()) || SAME_IN_LOCALE[locale]?.includes(enValue) || !/\p{L}/u.test(enValue)) continue;
        problems.push(`${locale} ${key}: ${JSON.stringify(enValue)}`);
      }
    }
    expectNone(problems, 'values left in English');
  });
});

describe('error catalogue and phrases', () => {
  const used = new Set<string>(Object.values(ErrorCodes).map((d) => d.key));
  const phraseKeys = Object.keys(en.errors);

  it('every error code has a message in en', () => {
    const missing = [...used].filter((k) => !phraseKeys.includes(k));
    expectNone(missing, 'error keys used by ErrorCodes without an en message');
  });

  it('every en error message belongs to a code or is a documented extra', () => {
    const orphans = phraseKeys.filter((k) => !used.has(k) && !EXTRA_ERROR_KEYS.includes(k));
    expectNone(orphans, 'en error messages no code uses');
    const staleExtras = EXTRA_ERROR_KEYS.filter((k) => !phraseKeys.includes(k) || used.has(k));
    expectNone(staleExtras, 'documented extra keys that are missing from en or now used by a code');
  });

  it('the missing-permission message takes errData service, resource and perm (SPEC §6)', () => {
    expect(placeholders(en.errors.permission_missing)).toEqual(['perm', 'resource', 'service']);
  });
});
