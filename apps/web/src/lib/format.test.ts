import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber, formatRelativeTime } from './format';

// Built from local time, so the expectations hold in any time zone the tests run in.
const at = new Date(2026, 10, 24, 11, 36, 1).getTime();

describe('dates and numbers in the active language', () => {
  it('formats date and time per language', () => {
    expect(formatDateTime(at, 'zh-CN')).toBe('2026/11/24 11:36:01');
    expect(formatDateTime(at, 'en-US')).toBe('11/24/2026, 11:36:01 AM');
    expect(formatDateTime(new Date(at), 'de-DE')).toBe('24.11.2026, 11:36:01');
    expect(formatDate(at, 'zh-CN')).toBe('2026/11/24');
    expect(formatDate(at, 'en-US')).toBe('11/24/2026');
  });

  it('gives an empty string for no time at all, so the caller says what none means', () => {
    for (const none of [null, undefined, 0, Number.NaN]) {
      expect(formatDateTime(none, 'en-US')).toBe('');
      expect(formatDate(none, 'en-US')).toBe('');
      expect(formatRelativeTime(none, 'en-US', at)).toBe('');
    }
  });

  it('formats numbers with the language grouping and decimal sign', () => {
    expect(formatNumber(1234567.5, 'en-US')).toBe('1,234,567.5');
    expect(formatNumber(1234567.5, 'de-DE')).toBe('1.234.567,5');
    expect(formatNumber(0.256, 'en-US', { style: 'percent' })).toBe('26%');
    expect(formatNumber(0, 'en-US')).toBe('0');
    expect(formatNumber(null, 'en-US')).toBe('');
  });

  it('says how long ago in the largest unit that fits', () => {
    const s = 1000;
    expect(formatRelativeTime(at - 20 * s, 'en-US', at)).toBe('20 seconds ago');
    expect(formatRelativeTime(at - 90 * s, 'en-US', at)).toBe('2 minutes ago');
    expect(formatRelativeTime(at - 3 * 3600 * s, 'zh-CN', at)).toBe('3小时前');
    expect(formatRelativeTime(at - 24 * 3600 * s, 'en-US', at)).toBe('yesterday');
    expect(formatRelativeTime(at + 2 * 24 * 3600 * s, 'en-US', at)).toBe('in 2 days');
    expect(formatRelativeTime(at - 400 * 24 * 3600 * s, 'en-US', at)).toBe('last year');
    expect(formatRelativeTime(at - 200, 'en-US', at)).toBe('now');
  });
});
