import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialLanguageTag } from './index';

function storeWith(language?: string): Storage {
  const map = new Map<string, string>(language ? [['app_language', JSON.stringify({ value: language, expire: null })]] : []);
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, String(v)),
  };
}

describe('the first language of a page (issue 10): ?lang=, saved choice, browser, default, zh-CN', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('takes ?lang= over the saved choice and the browser', () => {
    vi.stubGlobal('localStorage', storeWith('zh-CN'));
    expect(initialLanguageTag('', { search: '?client_id=x&lang=ar', browser: ['en-US'] })).toBe('ar');
    expect(initialLanguageTag('', { search: '?lang=en', browser: [] })).toBe('en-US');
  });

  it('takes the saved choice over the browser languages', () => {
    vi.stubGlobal('localStorage', storeWith('pt-BR'));
    expect(initialLanguageTag('', { search: '', browser: ['ar', 'en-US'] })).toBe('pt-BR');
  });

  it('takes the first browser language umbo has (Accept-Language order)', () => {
    vi.stubGlobal('localStorage', storeWith());
    expect(initialLanguageTag('', { search: '', browser: ['ko-KR', 'ar-EG', 'en-US'] })).toBe('ar');
    expect(initialLanguageTag('', { search: '', browser: ['zh-HK'] })).toBe('zh-TW');
  });

  it('skips an unknown ?lang= and falls back to the configured default, then zh-CN', () => {
    vi.stubGlobal('localStorage', storeWith());
    expect(initialLanguageTag('en-US', { search: '?lang=xx', browser: ['ko'] })).toBe('en-US');
    expect(initialLanguageTag('', { search: '?lang=xx', browser: ['ko'] })).toBe('zh-CN');
  });
});
