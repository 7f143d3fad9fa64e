import { describe, expect, it } from 'vitest';
import { completeCarriedQuery } from './guards';

const previous = { displayServiceAccount: 'true', displayClient: 'false' };

describe('carried query pair (SPEC §2)', () => {
  it('adds the pair from the previous route when missing', () => {
    expect(completeCarriedQuery('?x=1', previous)).toBe('?x=1&displayServiceAccount=true&displayClient=false');
  });

  it('keeps values the URL already has', () => {
    expect(completeCarriedQuery('?displayServiceAccount=false', previous)).toBe('?displayServiceAccount=false&displayClient=false');
    expect(completeCarriedQuery('?displayServiceAccount=false&displayClient=true', previous)).toBeUndefined();
  });
});
