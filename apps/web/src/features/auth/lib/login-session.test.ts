import { describe, expect, it } from 'vitest';
import { withLoginSession } from './login-session';

describe('login session state between the public screens', () => {
  it('carries the SPEC §3 parameters and nothing else', () => {
    const search = '?client_id=c1&redirect_uri=https%3A%2F%2Fapp.test%2Fcb&state=xyz&realm_id=r1&country=1&lang=de&challenge=ch&code=SECRET&activation=mail';
    const url = new URL(withLoginSession('/user/register', search), 'http://x.test');
    expect(url.pathname).toBe('/user/register');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'c1',
      redirect_uri: 'https://app.test/cb',
      state: 'xyz',
      realm_id: 'r1',
      country: '1',
      lang: 'de',
      challenge: 'ch',
    });
  });

  it("keeps the target's own parameters and adds none when there are none", () => {
    expect(withLoginSession('/user/register-result?activation=mail', '?realm_id=r1&realm_id=r2')).toBe('/user/register-result?activation=mail&realm_id=r1');
    expect(withLoginSession('/retrieve', '')).toBe('/retrieve');
    expect(withLoginSession('/user/loginSSO?realm_id=own', '?realm_id=other&redirect=%2Faccount%2Fsecurity')).toBe(
      '/user/loginSSO?realm_id=own&redirect=%2Faccount%2Fsecurity',
    );
  });
});
