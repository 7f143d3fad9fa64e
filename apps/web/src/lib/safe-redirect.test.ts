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

  // Issue 8, defect 11: URL resolution turned `/.//evil.test/x` into `//evil.test/x`. Whatever
  // comes in, what goes out is the personal center or a path that stays on this origin, does
  // not start with `//` or `/\\`, and is its own answer when checked again.
  const BYPASSES: [string, string][] = [
    ['protocol-relative', '//evil.test'],
    ['slash backslash', '/\\evil.test'],
    ['dot segment then //', '/.//evil.test/x'],
    ['encoded dot segment then //', '/%2e//evil.test/x'],
    ['dot segment then backslash', '/./\\evil.test'],
    ['dot-dot then //', '/..//evil.test'],
    ['encoded dot-dot then //', '/%2e%2e//evil.test'],
    ['segment, dot-dot, then //', '/x/..//evil.test'],
    ['encoded slash', '/%2F/evil.test'],
    ['encoded slashes', '/%2f%2fevil.test'],
    ['encoded backslash', '/%5Cevil.test'],
    ['fully encoded protocol-relative', '%2F%2Fevil.test'],
    ['backslashes and slashes', '\\/\\/evil.test'],
    ['tab inside //', '/\t/evil.test'],
    ['newline inside //', '/\n/evil.test'],
    ['NUL', '/\u0000/evil.test'],
    ['DEL', '/x\u007f'],
    ['javascript:', 'javascript:alert(1)'],
    ['mixed-case javascript:', 'JaVaScRiPt:alert(1)'],
    ['leading space', ' /x'],
    ['absolute URL', 'https://evil.test'],
    ['upper-case absolute URL', 'HTTPS://EVIL.TEST'],
    ['same host, other scheme', 'http://console.example.test/x'],
    ['userinfo trick', '/@evil.test'],
    ['data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['data: URL, base64', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['sign-in page behind a dot segment', '/./user/loginSSO'],
  ];

  it.each(BYPASSES)('%s (%j) never leaves the origin and is stable', (_label, raw) => {
    const result = safeRedirectTarget(raw, origin);
    expect(new URL(result, origin).origin).toBe(origin);
    expect(result.startsWith('/')).toBe(true);
    expect(result.startsWith('//')).toBe(false);
    expect(result).not.toContain('\\');
    expect(result).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(safeRedirectTarget(result, origin)).toBe(result);
  });

  it.each([
    '//evil.test',
    '/\\evil.test',
    '/.//evil.test/x',
    '/%2e//evil.test/x',
    '/./\\evil.test',
    '/..//evil.test',
    '/%2e%2e//evil.test',
    '/x/..//evil.test',
    '%2F%2Fevil.test',
    '\\/\\/evil.test',
    '/\t/evil.test',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' /x',
    'https://evil.test',
    'HTTPS://EVIL.TEST',
    'data:text/html,<script>alert(1)</script>',
    '/./user/loginSSO',
  ])('%j falls back to the personal center', (raw) => {
    expect(safeRedirectTarget(raw, origin)).toBe('/account/center');
  });

  it.each([
    // encoded slashes stay one path segment on this origin; the router never decodes them into a URL
    ['/%2F/evil.test', '/%2F/evil.test'],
    ['/%2f%2fevil.test', '/%2f%2fevil.test'],
    ['/%5Cevil.test', '/%5Cevil.test'],
    ['/@evil.test', '/@evil.test'],
    // harmless dot segments are resolved, and the result is the normalised path
    ['/account/./cert/../security', '/account/security'],
    ['/account/center/../../account/domain?a=1#b', '/account/domain?a=1#b'],
  ])('%j stays on the origin as %j', (raw, expected) => {
    expect(safeRedirectTarget(raw, origin)).toBe(expected);
  });

  it('builds the sign-in URL that returns to a path', () => {
    expect(signInUrlFor('/account/domain?a=1&b=2')).toBe('/user/loginSSO?redirect=%2Faccount%2Fdomain%3Fa%3D1%26b%3D2');
    // the realm a page names is the realm to sign in to (a device of realm r1: /device?realm_id=r1)
    expect(signInUrlFor('/device?realm_id=r1&user_code=BCDF-GHJK')).toBe(
      '/user/loginSSO?realm_id=r1&redirect=%2Fdevice%3Frealm_id%3Dr1%26user_code%3DBCDF-GHJK',
    );
  });
});
