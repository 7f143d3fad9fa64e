import { normaliseUserCode } from '@umbo/contracts/device';
import { describe, expect, it } from 'vitest';
import { asTyped } from './typed-code';

describe('the user code field', () => {
  it('shows letters in upper case with the dash after four, whatever was typed or pasted', () => {
    expect(asTyped('')).toBe('');
    expect(asTyped('bcd')).toBe('BCD');
    expect(asTyped('bcdf')).toBe('BCDF');
    expect(asTyped('bcdfg')).toBe('BCDF-G');
    expect(asTyped('BCDF-GHJK')).toBe('BCDF-GHJK');
    expect(asTyped(' bcdf ghjk ')).toBe('BCDF-GHJK');
    expect(asTyped('bcdf-ghjk-lmn')).toBe('BCDF-GHJK');
  });

  it('what it shows is what the server normalises to, and vowels never make a code', () => {
    expect(normaliseUserCode(asTyped('bcdfghjk'))).toBe('BCDFGHJK');
    expect(normaliseUserCode(asTyped('aeio-uaei'))).toBeUndefined();
    expect(normaliseUserCode('BCDF-GHJ')).toBeUndefined();
  });
});
