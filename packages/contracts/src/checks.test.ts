import { describe, expect, it } from 'vitest';
import { isEmail, isMailCode, isMobileFor, passwordStrength } from './checks.js';

describe('plain checks (no zod)', () => {
  it('SPEC §5: mobile numbers, mail codes, addresses', () => {
    expect(isMobileFor(undefined, '13812345678')).toBe(true);
    expect(isMobileFor('86', '12812345678')).toBe(false);
    expect(isMobileFor('1', '4155550123')).toBe(true);
    expect(isMobileFor('44', '12')).toBe(false);
    expect(isMailCode('A'.repeat(24))).toBe(true);
    expect(isMailCode('A'.repeat(23))).toBe(false);
    expect(isEmail('a@b.co')).toBe(true);
    expect(isEmail('a b@c.d')).toBe(false);
  });

  it('SPEC §5 strength: short is low, repetition and variety count', () => {
    expect(passwordStrength('Abc1!')).toBe('low');
    expect(passwordStrength('aaaaaa')).toBe('low');
    expect(passwordStrength('abcdefgh')).toBe('medium');
    expect(passwordStrength('Pa55-word-Long!')).toBe('strong');
  });
});
