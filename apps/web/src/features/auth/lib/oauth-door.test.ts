import { describe, expect, it } from 'vitest';
import { httpUrl } from '../api/oauth-interaction';
import { oauthDoorOf } from './use-oauth-sign-in';

describe('the OAuth front doors of /user/loginSSO (DESIGN.md §4)', () => {
  const q = (s: string) => new URLSearchParams(s);

  it('a challenge wins; callback_uri links need client_id, callback_uri and a realm', () => {
    expect(oauthDoorOf(q('challenge=v1.a.b.c&client_id=x&callback_uri=https://a.test/cb'), 'r1')).toEqual({ kind: 'challenge', challenge: 'v1.a.b.c' });
    expect(oauthDoorOf(q('client_id=x&callback_uri=https%3A%2F%2Fa.test%2Fcb&state=s'), 'r1')).toEqual({
      kind: 'callback',
      clientId: 'x',
      callbackUri: 'https://a.test/cb',
      realmId: 'r1',
      state: 's',
    });
    expect(oauthDoorOf(q('client_id=x&callback_uri=https://a.test/cb'), undefined)).toBeUndefined();
    // client_id alone (SPEC §3 login session state) is no door: after sign-in the console opens
    expect(oauthDoorOf(q('client_id=x'), 'r1')).toBeUndefined();
    expect(oauthDoorOf(q(''), 'r1')).toBeUndefined();
  });

  it('A-41 a client’s login/regist URL becomes a link only when it is plain http(s)', () => {
    expect(httpUrl('https://app.test/join')).toBe('https://app.test/join');
    expect(httpUrl('HTTP://app.test/')).toBe('HTTP://app.test/');
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,x', '//evil.test', '/relative', 'https://a.test/ x', '', undefined]) {
      expect(httpUrl(bad), String(bad)).toBeUndefined();
    }
  });
});
