/** The redaction list (issue 8, A-33 "never logged"): unit rules; logs.test.ts greps real runs. */
import { describe, expect, it } from 'vitest';
import { redactText, redactValue } from './redact.js';

describe('A-33 redaction', () => {
  it.each([
    ['/reset?realm_id=master&code=AbC123xyz', '/reset?realm_id=master&code=[redacted]'],
    ['/user/register-result?email=a%40b.test&code=Zz9', '/user/register-result?email=a%40b.test&code=[redacted]'],
    ['/loginByFToken?ftoken=master.abcdef', '/loginByFToken?ftoken=[redacted]'],
    ['/cb?state=s1&access_token=t&id_token_hint=h#x', '/cb?state=s1&access_token=[redacted]&id_token_hint=[redacted]#x'],
    ['Route GET:/x?Client-Secret=s not found', 'Route GET:/x?Client-Secret=[redacted] not found'],
    ['/x?otpTicket=T1&ticket=T2', '/x?otpTicket=[redacted]&ticket=[redacted]'],
    // issue 14: the upstream sign-in hands the console a ticket in the address
    ['/user/loginSSO?realm_id=r1&upstream_ticket=T3', '/user/loginSSO?realm_id=r1&upstream_ticket=[redacted]'],
    ['/api/users/auth/options?realm_id=master', '/api/users/auth/options?realm_id=master'],
    // a secret inside an encoded URL carried by another parameter (the sign-in's `redirect`)
    [
      '/user/loginSSO?realm_id=r1&redirect=%2Fdevice%3Frealm_id%3Dr1%26user_code%3DBCDF-GHJK',
      `/user/loginSSO?realm_id=r1&redirect=${encodeURIComponent('/device?realm_id=r1&user_code=[redacted]')}`,
    ],
    ['/x?next=%2Freset%3Fcode%3DAbC', `/x?next=${encodeURIComponent('/reset?code=[redacted]')}`],
    ['/x?next=%2Fplain%3Fa%3D1', '/x?next=%2Fplain%3Fa%3D1'],
    ['/x?bad=%E0%A4%A', '/x?bad=%E0%A4%A'],
  ])('%s', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it('redacts secret-named fields at any depth and pairs inside strings, leaving the rest', () => {
    const input = { outbox: { to: 'a@b.test', body: 'your code' }, password: 'p', nested: [{ otp: '123456', n: 1 }], url: '/x?token=t&y=1', newPassword: 'q' };
    expect(redactValue(input)).toEqual({
      outbox: { to: 'a@b.test', body: 'your code' },
      password: '[redacted]',
      nested: [{ otp: '[redacted]', n: 1 }],
      url: '/x?token=[redacted]&y=1',
      newPassword: '[redacted]',
    });
  });

  it('leaves objects that are not plain (requests, replies, errors) to the serializers', () => {
    class Req {
      get url() {
        return '/reset?code=x';
      }
    }
    const req = new Req();
    expect((redactValue({ req }) as { req: unknown }).req).toBe(req);
  });
});
