import { describe, expect, it } from 'vitest';
import { normaliseProjectConfig } from './project-config';

describe('project.config.json (SPEC §7)', () => {
  it('keeps well-formed fields', () => {
    const raw = {
      siteTitle: 'umbo',
      defaultLocale: 'en',
      realmId: 'master',
      header: { globalScript: 'https://a/h.js', chinaScript: '', chinaHosts: ['.cn'], timeoutMs: 1500 },
    };
    expect(normaliseProjectConfig(raw)).toEqual(raw);
  });

  it('never trusts the shape: wrong types fall back to defaults', () => {
    const config = normaliseProjectConfig({ siteTitle: 5, header: { chinaHosts: ['.cn', 7], timeoutMs: -1 } });
    expect(config.siteTitle).toBe('');
    expect(config.header.chinaHosts).toEqual(['.cn']);
    expect(config.header.timeoutMs).toBe(3000);
    expect(normaliseProjectConfig('nonsense').header.globalScript).toBe('');
  });
});
