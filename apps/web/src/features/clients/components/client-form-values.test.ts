import { clientCreateBody, clientUpdateBody } from '@umbo/contracts/clients';
import { describe, expect, it } from 'vitest';
import { newClientValues, toCreateBody, toUpdateBody, type ClientFormValues } from './client-form-values';

const filled = (patch: Partial<ClientFormValues> = {}): ClientFormValues => ({
  ...newClientValues(),
  name: 'Robot app',
  desc: 'robot companion',
  redirectUris: ['https://app.example.com/cb', ' '],
  refreshTokenRecreate: true,
  authCodeMulitUse: false,
  ...patch,
});

describe('client form values (SPEC §5)', () => {
  it('starts a new client with both yes/no choices unmade and a generated 32-character id', () => {
    const v = newClientValues();
    expect([v.authCodeMulitUse, v.refreshTokenRecreate]).toEqual([undefined, undefined]);
    expect(v.clientId).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('makes a create body the server schema accepts, empty rows dropped', () => {
    const body = toCreateBody(filled());
    expect(body.redirectUris).toEqual(['https://app.example.com/cb']);
    expect(clientCreateBody.safeParse(body).success).toBe(true);
  });

  it('sends keys only for private_key_jwt and source ranges only with client_credentials', () => {
    const jwks = JSON.stringify({ keys: [{ kty: 'EC', crv: 'P-256', x: 'abc', y: 'def' }] });
    expect(toCreateBody(filled({ jwks })).jwks).toBeNull();
    expect(toCreateBody(filled({ jwks, tokenEndpointAuthMethod: 'private_key_jwt' })).jwks).toEqual(JSON.parse(jwks));
    expect(toCreateBody(filled({ sourceRanges: ['10.0.0.0/8'] })).sourceRanges).toEqual([]);
    expect(toCreateBody(filled({ sourceRanges: ['10.0.0.0/8'], grantTypes: ['client_credentials'] })).sourceRanges).toEqual(['10.0.0.0/8']);
  });

  it('never changes the client id, and sends the sub-client flags for sub clients only (1009 otherwise)', () => {
    const top = toUpdateBody(filled(), false);
    expect(top).not.toHaveProperty('clientId');
    expect(top).not.toHaveProperty('allowToken');
    expect(toUpdateBody(filled({ allowToken: true }), true)).toMatchObject({ allowToken: true, allowAuthCode: false });
    expect(clientUpdateBody.safeParse(top).success).toBe(true);
  });
});
