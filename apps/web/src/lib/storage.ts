/**
 * Client-side stored values under SPEC §3's keys. Each value is kept as JSON
 * `{ value, expire }` so that the token's 7-day expiry (SPEC §4) travels with it.
 */
export const STORAGE_KEYS = {
  token: 'access_token',
  /** Older builds and tools wrote the token here (SPEC §3 "fallback key token"). */
  tokenFallback: 'token',
  sidebarType: 'sidebar_type',
  isMobile: 'is_mobile',
  navTheme: 'nav_theme',
  layout: 'layout',
  fixedHeader: 'fixed_header',
  fixedSidebar: 'fixed_sidebar',
  contentWidth: 'content_width',
  autoHideHeader: 'auto_hide_header',
  color: 'color',
  weak: 'weak',
  multiTab: 'multi_tab',
  language: 'app_language',
  /** Not SPEC §3: the console's own. Hidden columns per list table, `{ [tableId]: columnKey[] }`. */
  tableColumns: 'table_columns',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

interface Stored<T> {
  value: T;
  expire: number | null;
}

/** localStorage, or nothing when the browser refuses it (private mode, disabled storage). */
function defaultStore(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/** The value under `key`, or undefined when absent or expired (expired values are removed). */
export function readStored<T>(key: StorageKey, now = Date.now(), store = defaultStore()): T | undefined {
  const raw = store?.getItem(key);
  if (raw == null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // A bare string written by something else (e.g. a token pasted by a tool) is taken as is.
    return raw as T;
  }
  if (parsed && typeof parsed === 'object' && 'value' in parsed) {
    const { value, expire } = parsed as Stored<T>;
    if (typeof expire === 'number' && expire <= now) {
      store?.removeItem(key);
      return undefined;
    }
    return value;
  }
  return parsed as T;
}

/** Stores `value`; `expireAt` (epoch ms) makes it vanish after that moment. */
export function writeStored<T>(key: StorageKey, value: T, expireAt: number | null = null, store = defaultStore()): void {
  try {
    store?.setItem(key, JSON.stringify({ value, expire: expireAt } satisfies Stored<T>));
  } catch {
    // Quota or disabled storage: the setting simply does not survive a reload.
  }
}

export function removeStored(key: StorageKey, store = defaultStore()): void {
  store?.removeItem(key);
}
