import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, loadSettings } from './settings';

describe('page settings (SPEC §2 defaults, §3 keys)', () => {
  it('defaults to the classic look: dark side menu, fluid, fixed header and sidebar, #1890ff', () => {
    expect(loadSettings(() => undefined)).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({
      navTheme: 'dark',
      layout: 'sidemenu',
      contentWidth: 'Fluid',
      fixedHeader: true,
      fixedSidebar: true,
      color: '#1890ff',
    });
  });

  it('reads each stored key and ignores values of the wrong shape', () => {
    const stored: Record<string, unknown> = { nav_theme: 'realDark', layout: 'topmenu', color: 'red;}', multi_tab: 'yes', sidebar_type: false };
    const settings = loadSettings((key) => stored[key]);
    expect(settings.navTheme).toBe('realDark');
    expect(settings.layout).toBe('topmenu');
    expect(settings.color).toBe('#1890ff');
    expect(settings.multiTab).toBe(true);
    expect(settings.sidebarOpen).toBe(false);
  });
});
