import { CLIENT_ID } from '@umbo/contracts/clients';
import { describe, expect, it } from 'vitest';
import { randomClientId } from './random-id';

describe('randomClientId (SPEC §9 random string of 32)', () => {
  it('is 32 letters and digits that the contracts accept as a client id', () => {
    const id = randomClientId();
    expect(id).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(CLIENT_ID.test(id)).toBe(true);
  });

  it('differs each time and uses the whole alphabet', () => {
    const ids = Array.from({ length: 200 }, () => randomClientId());
    expect(new Set(ids).size).toBe(200);
    expect(new Set(ids.join('')).size).toBe(62);
  });
});
