/**
 * Page settings of the drawer (SPEC §2 "Layout defaults", §3 stored values), one storage key
 * each. Default look (issue 2): a dark side menu under a light top header — SPEC's "light nav
 * theme" and "default theme dark" read together — with the full dark scheme one click away.
 */
import { useSyncExternalStore } from 'react';
import { readStored, STORAGE_KEYS, writeStored } from './storage';

export type NavTheme = 'dark' | 'light' | 'realDark';
export type LayoutMode = 'sidemenu' | 'topmenu';
export type ContentWidth = 'Fluid' | 'Fixed';

export interface PageSettings {
  navTheme: NavTheme;
  layout: LayoutMode;
  contentWidth: ContentWidth;
  fixedHeader: boolean;
  fixedSidebar: boolean;
  autoHideHeader: boolean;
  color: string;
  weak: boolean;
  multiTab: boolean;
  /** `sidebar_type`: true while the side menu is open (not collapsed). */
  sidebarOpen: boolean;
  isMobile: boolean;
}

/** Ant Design's preset primaries, each with a phrase key under `settings`. */
export const PRIMARY_COLORS = [
  { key: 'color_daybreak', color: '#1890ff' },
  { key: 'color_dust', color: '#f5222d' },
  { key: 'color_volcano', color: '#fa541c' },
  { key: 'color_sunset', color: '#faad14' },
  { key: 'color_cyan', color: '#13c2c2' },
  { key: 'color_green', color: '#52c41a' },
  { key: 'color_geekblue', color: '#2f54eb' },
  { key: 'color_purple', color: '#722ed1' },
] as const;

export const DEFAULT_SETTINGS: PageSettings = {
  navTheme: 'dark',
  layout: 'sidemenu',
  contentWidth: 'Fluid',
  fixedHeader: true,
  fixedSidebar: true,
  autoHideHeader: false,
  color: '#1890ff',
  weak: false,
  multiTab: true,
  sidebarOpen: true,
  isMobile: false,
};

const KEY_OF: Record<keyof PageSettings, (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS]> = {
  navTheme: STORAGE_KEYS.navTheme,
  layout: STORAGE_KEYS.layout,
  contentWidth: STORAGE_KEYS.contentWidth,
  fixedHeader: STORAGE_KEYS.fixedHeader,
  fixedSidebar: STORAGE_KEYS.fixedSidebar,
  autoHideHeader: STORAGE_KEYS.autoHideHeader,
  color: STORAGE_KEYS.color,
  weak: STORAGE_KEYS.weak,
  multiTab: STORAGE_KEYS.multiTab,
  sidebarOpen: STORAGE_KEYS.sidebarType,
  isMobile: STORAGE_KEYS.isMobile,
};

const VALID: { [K in keyof PageSettings]: (v: unknown) => v is PageSettings[K] } = {
  navTheme: (v): v is NavTheme => v === 'dark' || v === 'light' || v === 'realDark',
  layout: (v): v is LayoutMode => v === 'sidemenu' || v === 'topmenu',
  contentWidth: (v): v is ContentWidth => v === 'Fluid' || v === 'Fixed',
  fixedHeader: (v): v is boolean => typeof v === 'boolean',
  fixedSidebar: (v): v is boolean => typeof v === 'boolean',
  autoHideHeader: (v): v is boolean => typeof v === 'boolean',
  color: (v): v is string => typeof v === 'string' && /^#[0-9a-fA-F]{6}$/.test(v),
  weak: (v): v is boolean => typeof v === 'boolean',
  multiTab: (v): v is boolean => typeof v === 'boolean',
  sidebarOpen: (v): v is boolean => typeof v === 'boolean',
  isMobile: (v): v is boolean => typeof v === 'boolean',
};

/** Stored values over the defaults; a stored value of the wrong shape is ignored. */
export function loadSettings(read: (key: string) => unknown = (k) => readStored(k as never)): PageSettings {
  const out = { ...DEFAULT_SETTINGS } as Record<keyof PageSettings, unknown>;
  for (const name of Object.keys(KEY_OF) as (keyof PageSettings)[]) {
    const value = read(KEY_OF[name]);
    if (VALID[name](value)) out[name] = value;
  }
  return out as unknown as PageSettings;
}

let settings: PageSettings | undefined;
const listeners = new Set<() => void>();

function snapshot(): PageSettings {
  settings ??= loadSettings();
  return settings;
}

export function setSetting<K extends keyof PageSettings>(name: K, value: PageSettings[K]): void {
  settings = { ...snapshot(), [name]: value };
  writeStored(KEY_OF[name], value);
  for (const listener of listeners) listener();
}

export function resetSettings(): void {
  for (const name of Object.keys(DEFAULT_SETTINGS) as (keyof PageSettings)[]) {
    if (name !== 'isMobile' && name !== 'sidebarOpen') setSetting(name, DEFAULT_SETTINGS[name]);
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSettings(): PageSettings {
  return useSyncExternalStore(subscribe, snapshot);
}
