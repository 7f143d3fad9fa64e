import { describe, expect, it } from 'vitest';
import { envelopeError, envelopeMessage, forbiddenMessage, isFailEnvelope, isOwnAnswer, type Translate } from './api-error';

// Echoes the key and options, so each test sees which phrase the policy picked.
const t: Translate = (key, options) => (options ? `${key} ${JSON.stringify(options)}` : key);

const fail = (code: number, extra: Record<string, unknown> = {}) => ({ result: 'fail' as const, code, errno: code, error: 'x', msg: 'server text', ...extra });

describe('failure envelopes (SPEC §8)', () => {
  it('fails on result fail or a non-zero code, not on success', () => {
    expect(isFailEnvelope({ result: 'ok', code: 0, data: 1 })).toBe(false);
    expect(isFailEnvelope({ result: 'ok', code: 1009 })).toBe(true);
    expect(isFailEnvelope({ result: 'fail', code: 0 })).toBe(true);
    expect(isFailEnvelope('plain text')).toBe(false);
    expect(isFailEnvelope({ name: 'no envelope' })).toBe(false);
  });

  it('shows the catalogue phrase, with the code appended for credential failures', () => {
    expect(envelopeMessage(fail(1010), t)).toBe('errors.bad_credentials (1010)');
    expect(envelopeMessage(fail(1301), t)).toBe('errors.bad_credentials (1301)');
    expect(envelopeMessage(fail(1205), t)).toBe('errors.user_exists');
  });

  it('A-31: adds the wait to a throttled sign-in, on its own line', () => {
    expect(envelopeMessage(fail(1010, { errData: { locked: true, retryAfter: 2 } }), t)).toBe(
      'errors.bad_credentials (1010)\naccount.locked_notice {"seconds":2}',
    );
    expect(envelopeMessage(fail(1010, { errData: { locked: true, retryAfter: 900 } }), t)).toBe(
      'errors.bad_credentials (1010)\naccount.locked_notice_minutes {"minutes":15}',
    );
    expect(envelopeMessage(fail(1010, { errData: { locked: true, retryAfter: 118.2 } }), t)).toBe(
      'errors.bad_credentials (1010)\naccount.locked_notice {"seconds":119}',
    );
    expect(envelopeMessage(fail(1010, { errData: { locked: false, retryAfter: 2 } }), t)).toBe('errors.bad_credentials (1010)');
    expect(envelopeMessage(fail(1010, { errData: { locked: true } }), t)).toBe('errors.bad_credentials (1010)');
  });

  it("shows the server's message for codes outside the catalogue", () => {
    expect(envelopeMessage(fail(9999), t)).toBe('server text');
    expect(envelopeMessage(fail(9999, { msg: '' }), t)).toBe('http.request_failed');
  });

  it('shows the missing-permission message when errData names service, resource and perm', () => {
    const body = fail(1003, { errData: { service: 'cert', resource: 'keys', perm: 'delete' } });
    expect(envelopeMessage(body, t)).toBe('errors.permission_missing {"service":"cert","resource":"keys","perm":"delete"}');
    expect(envelopeMessage(fail(1003, { errData: { service: 'cert' } }), t)).toBe('errors.forbidden');
  });

  it('carries code, key and status on the error', () => {
    const err = envelopeError({ ...fail(1010), error: 'bad_credentials' }, 400, t);
    expect([err.kind, err.code, err.key, err.status, err.notified]).toEqual(['envelope', 1010, 'bad_credentials', 400, false]);
  });
});

describe('403 answers (SPEC §6, §8, issue 10)', () => {
  it('takes 5007, 1011, 1014 and 1008 as answers of their own, not as "Forbidden"', () => {
    for (const code of [5007, 1011, 1014, 1008]) expect(isOwnAnswer(fail(code)), String(code)).toBe(true);
    expect(envelopeMessage(fail(5007), t)).toBe('errors.email_not_activated');
    expect(isOwnAnswer(fail(1003))).toBe(false);
    expect(isOwnAnswer(fail(1011, { errData: { service: 'users', resource: 'account', perm: 'edit' } }))).toBe(false);
  });

  it('names the missing permission, an undefined one, or says "not defined or insufficient"', () => {
    expect(forbiddenMessage(fail(1003, { errData: { service: 'users', resource: 'account', perm: 'edit' } }), t)).toBe(
      'errors.permission_missing {"service":"users","resource":"account","perm":"edit"}',
    );
    expect(forbiddenMessage(fail(1003, { errData: { perm: 'realm.edit' } }), t)).toBe('errors.permission_undefined');
    expect(forbiddenMessage(fail(1003), t)).toBe('http.permission_insufficient');
    expect(forbiddenMessage(fail(4242), t)).toBe('server text');
  });
});
