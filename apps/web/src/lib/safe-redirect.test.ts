import { describe, expect, it } from 'vitest';
import { safeRedirectTarget, signInUrlFor } from './safe-redirect';

const origin = 'https://console.example.test';

describe('safeRedirectTarget (no open redirect, SECURITY.md AS-03)', () => {
  it('follows a same-origin path with its query and hash', () => {
    expect(safeRedirectTarget('/account/cert/keys?x=1#top', origin)).toBe('/account/cert/keys?x=1#top');
  });

  it.each([
    ['absent', null],
    ['empty', ''],
    ['absolute URL', 'https://evil.test/x'],
    ['protocol-relative', '//evil.test/x'],
    ['backslash trick', '/\\evil.test/x'],
    ['javascript:', 'javascript:alert(1)'],
    ['relative without slash', 'account/center'],
    ['control character', '/\t/evil.test'],
    ['the sign-in page itself', '/user/loginSSO?redirect=/x'],
    ['the legacy sign-in page', '/login'],
  ])('falls back to the personal center for %s', (_label, raw) => {
    expect(safeRedirectTarget(raw, origin)).toBe('/account/center');
  });

  it('builds the sign-in URL that returns to a path', () => {
    expect(signInUrlFor('/account/domain?a=1&b=2')).toBe('/user/loginSSO?redirect=%2Faccount%2Fdomain%3Fa%3D1%26b%3D2');
  });
});
