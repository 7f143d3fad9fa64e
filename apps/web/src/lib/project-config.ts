/**
 * GET /project.config.json?ts=<now> (SPEC §7), loaded before the app starts. The page must
 * never hang on it: after the HTTP timeout, or on any failure, the defaults below apply.
 */
import { paths } from '@umbo/contracts/paths';
import type { ProjectConfig } from '@umbo/contracts/project-config';
import { LIMITS } from '@umbo/contracts/checks';

const DEFAULTS: ProjectConfig = {
  siteTitle: '',
  header: { globalScript: '', chinaScript: '', chinaHosts: [], timeoutMs: 3000 },
  defaultLocale: '',
  realmId: '',
};

let current: ProjectConfig = DEFAULTS;

export function projectConfig(): ProjectConfig {
  return current;
}

/** Merges what the server sent over the defaults, ignoring fields of the wrong type. */
export function normaliseProjectConfig(raw: unknown): ProjectConfig {
  const src = (raw && typeof raw === 'object' ? raw : {}) as Partial<Record<keyof ProjectConfig, unknown>>;
  const header = (src.header && typeof src.header === 'object' ? src.header : {}) as Record<string, unknown>;
  const str = (v: unknown, d: string) => (typeof v === 'string' ? v : d);
  return {
    siteTitle: str(src.siteTitle, DEFAULTS.siteTitle),
    defaultLocale: str(src.defaultLocale, DEFAULTS.defaultLocale),
    realmId: str(src.realmId, DEFAULTS.realmId),
    header: {
      globalScript: str(header.globalScript, ''),
      chinaScript: str(header.chinaScript, ''),
      chinaHosts: Array.isArray(header.chinaHosts) ? header.chinaHosts.filter((h): h is string => typeof h === 'string') : [],
      timeoutMs: typeof header.timeoutMs === 'number' && header.timeoutMs > 0 ? header.timeoutMs : DEFAULTS.header.timeoutMs,
    },
  };
}

export async function loadProjectConfig(): Promise<ProjectConfig> {
  try {
    const res = await fetch(`${paths.projectConfig}?ts=${Date.now()}`, {
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(LIMITS.httpTimeoutMs),
    });
    if (res.ok) current = normaliseProjectConfig(await res.json());
  } catch (err) {
    console.warn('project.config.json could not be loaded; using defaults', err);
  }
  return current;
}
