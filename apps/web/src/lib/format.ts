/**
 * Dates, times and numbers as every screen shows them: in the active language (lib/i18n), in one
 * place. The functions take the language tag last so that tests can pass one; components use
 * useFormat(), which follows a language switch. Instants are epoch milliseconds (the API's
 * times); null, undefined, 0 and NaN mean "none" and format as '' so a caller can say what
 * "none" means there (`formatDateTime(t) || t('security.never')`).
 */
import { useMemo } from 'react';
import { localeState, useLocaleState } from './i18n';

export type Instant = number | Date | null | undefined;

const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();

/** Intl formatters are costly to build and a table formats hundreds of cells: one per tag and style. */
function memo<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(key: string, make: () => T): T {
  let f = formats.get(key) as T | undefined;
  if (!f) formats.set(key, (f = make()));
  return f;
}

function toMs(value: Instant): number | undefined {
  const ms = value instanceof Date ? value.getTime() : value;
  return ms && Number.isFinite(ms) ? ms : undefined;
}

const currentTag = () => localeState().tag;

const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit' };

/** Date and time, e.g. `2026/11/24 11:36:01` (zh-CN), `11/24/2026, 11:36:01 AM` (en-US). */
export function formatDateTime(value: Instant, tag = currentTag()): string {
  const ms = toMs(value);
  return ms === undefined ? '' : memo(`dt|${tag}`, () => new Intl.DateTimeFormat(tag, { ...DATE, ...TIME })).format(ms);
}

/** The date alone, e.g. `2026/11/24`. */
export function formatDate(value: Instant, tag = currentTag()): string {
  const ms = toMs(value);
  return ms === undefined ? '' : memo(`d|${tag}`, () => new Intl.DateTimeFormat(tag, DATE)).format(ms);
}

/** A number with the language's digits and grouping; `options` as Intl.NumberFormat takes them. */
export function formatNumber(value: number | null | undefined, tag = currentTag(), options?: Intl.NumberFormatOptions): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return memo(`n|${tag}|${JSON.stringify(options ?? {})}`, () => new Intl.NumberFormat(tag, options)).format(value);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** How long ago (or from now) in the largest fitting unit: `3 minutes ago`, `yesterday`, `in 2 days`. */
export function formatRelativeTime(value: Instant, tag = currentTag(), now: number = Date.now()): string {
  const ms = toMs(value);
  if (ms === undefined) return '';
  const seconds = (ms - now) / 1000;
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? UNITS[UNITS.length - 1]!;
  // Rounded away from zero on .5 both ways (Math.round(-1.5) is -1); `|| 0` turns -0 into 0,
  // which Intl says as "now" rather than "0 seconds ago".
  const amount = Math.sign(seconds) * Math.round(Math.abs(seconds) / size) || 0;
  return memo(`r|${tag}`, () => new Intl.RelativeTimeFormat(tag, { numeric: 'auto' })).format(amount, unit);
}

export interface Formatters {
  dateTime: (value: Instant) => string;
  date: (value: Instant) => string;
  number: (value: number | null | undefined, options?: Intl.NumberFormatOptions) => string;
  relative: (value: Instant, now?: number) => string;
}

/** The formatters bound to the active language; a component using them re-renders on a switch. */
export function useFormat(): Formatters {
  const { tag } = useLocaleState();
  return useMemo(
    () => ({
      dateTime: (value) => formatDateTime(value, tag),
      date: (value) => formatDate(value, tag),
      number: (value, options) => formatNumber(value, tag, options),
      relative: (value, now) => formatRelativeTime(value, tag, now),
    }),
    [tag],
  );
}
