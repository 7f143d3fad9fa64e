import { describe, expect, it } from 'vitest';
import { cloudHeaderScript, isChinaHost } from './cloud-header-source';

const header = {
  globalScript: 'https://static.example.com/header.js',
  chinaScript: 'https://static.example.cn/header.js',
  chinaHosts: ['.example.cn', 'cn.example.com'],
  timeoutMs: 3000,
};

describe('shared cloud header source (SPEC §1)', () => {
  it('picks the China script on a China host (suffix match)', () => {
    expect(isChinaHost('console.example.cn', header.chinaHosts)).toBe(true);
    expect(isChinaHost('example.cn', header.chinaHosts)).toBe(true);
    expect(isChinaHost('cn.example.com', header.chinaHosts)).toBe(true);
    expect(cloudHeaderScript(header, 'console.example.cn')).toBe(header.chinaScript);
  });

  it('picks the world-wide script elsewhere, and does not match look-alikes', () => {
    expect(isChinaHost('notexample.cn.evil.test', header.chinaHosts)).toBe(false);
    expect(isChinaHost('fooexample.cn', header.chinaHosts)).toBe(false);
    expect(cloudHeaderScript(header, 'console.example.com')).toBe(header.globalScript);
  });

  it('has none when the region has none configured', () => {
    expect(cloudHeaderScript({ ...header, globalScript: ' ' }, 'localhost')).toBeUndefined();
  });
});
