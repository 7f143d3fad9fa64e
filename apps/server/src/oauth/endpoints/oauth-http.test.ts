/**
 * The token response is written without JSON.stringify's scan over the tokens (issue 12 bench):
 * what a client parses must be byte for byte what JSON.stringify would have written.
 */
import { describe, expect, it } from 'vitest';
import { tokenResponseJson } from './oauth-http.js';

const jwt = `${'eyJ0eXAiOiJhdCtqd3QiLCJhbGciOiJFUzI1NiJ9'}.${'eyJzdWIiOiJjbGllbnQ6YWJjIn0'}.${'A-_b'.repeat(21)}`;

describe('tokenResponseJson', () => {
  it('writes what JSON.stringify writes, members in the same order', () => {
    const responses: object[] = [
      { access_token: jwt, token_type: 'Bearer', expires_in: 3600, scope: 'api:read' },
      { access_token: jwt, token_type: 'Bearer', expires_in: 3600 },
      { access_token: jwt, token_type: 'Bearer', expires_in: 300, scope: 'openid profile', refresh_token: 'aZ09'.repeat(11), id_token: jwt },
      { access_token: jwt, token_type: 'Bearer', expires_in: 60, issued_token_type: 'urn:ietf:params:oauth:token-type:access_token' },
      { access_token: jwt, token_type: 'Bearer', expires_in: 60, scope: undefined, refresh_token: undefined },
      {},
    ];
    for (const r of responses) expect(tokenResponseJson(r)).toBe(JSON.stringify(r));
  });

  it('escapes as always a value that is not one of our tokens, or a token holding what JSON escapes', () => {
    const responses: object[] = [
      { access_token: 'a"b', token_type: 'Bearer', expires_in: 1 },
      { access_token: 'a\\b', refresh_token: 'é', id_token: '\u2028' },
      { access_token: jwt, token_type: 'Bearer', expires_in: 1, scope: 'a"b\\c\n', extra: { nested: ['"'] }, ['we"ird']: 1 },
      { access_token: jwt, expires_in: Number.NaN },
    ];
    for (const r of responses) {
      expect(tokenResponseJson(r)).toBe(JSON.stringify(r));
      expect(JSON.parse(tokenResponseJson(r))).toEqual(JSON.parse(JSON.stringify(r)));
    }
  });
});
