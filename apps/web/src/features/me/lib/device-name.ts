/**
 * A short device name from a user agent: browser and system. Chromium-based browsers also
 * name Chrome and Safari in their user agent, and Chrome names Safari, so the more specific
 * token wins: Edge and Opera before Chrome, Chrome before Safari.
 */
const BROWSERS = [/Edg\/[\d.]+/, /OPR\/[\d.]+/, /Firefox\/[\d.]+/, /Chrome\/[\d.]+/, /Safari\/[\d.]+/];

export function deviceName(userAgent: string): string {
  const token = BROWSERS.map((re) => re.exec(userAgent)?.[0]).find(Boolean);
  const browser = token?.replace(/\.[\d.]+$/, '') ?? '';
  const system = /(Windows NT [\d.]+|Android [\d.]+|iPhone OS [\d_]+|Mac OS X [\d_]+|Linux)/.exec(userAgent)?.[0] ?? '';
  return [browser, system].filter(Boolean).join(' · ') || userAgent.slice(0, 60);
}
