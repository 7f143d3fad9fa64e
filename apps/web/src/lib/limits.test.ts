import { LIMITS as CONTRACT_LIMITS } from '@umbo/contracts/rules';
import { describe, expect, it } from 'vitest';
import { LIMITS } from './limits';

describe('console limits', () => {
  it('match the contracts LIMITS they mirror', () => {
    for (const [name, value] of Object.entries(LIMITS)) {
      expect(CONTRACT_LIMITS[name as keyof typeof CONTRACT_LIMITS], name).toBe(value);
    }
  });
});
