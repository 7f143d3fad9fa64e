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
    ['/api/users/auth/options?realm_id=master', '/api/users/auth/options?realm_id=master'],
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
