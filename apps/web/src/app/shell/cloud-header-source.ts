/**
 * Which shared cloud header script this page loads (SPEC §1): the China one when the page's
 * host name ends with one of `chinaHosts`, else the world-wide one; none when not configured.
 */
import type { ProjectConfig } from '@umbo/contracts/project-config';

export function isChinaHost(hostname: string, chinaHosts: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return chinaHosts.some((raw) => {
    const suffix = raw.toLowerCase().replace(/^\.+/, '');
    return suffix !== '' && (host === suffix || host.endsWith(`.${suffix}`));
  });
}

export function cloudHeaderScript(header: ProjectConfig['header'], hostname: string): string | undefined {
  const src = isChinaHost(hostname, header.chinaHosts) ? header.chinaScript : header.globalScript;
  return src.trim() || undefined;
}
