import { flowPaths as contractPaths } from '@umbo/contracts/auth-flows';
import { describe, expect, it } from 'vitest';
import { flowPaths } from './flow-paths';

describe('console flow paths', () => {
  it('match the contracts paths they mirror', () => {
    for (const [name, path] of Object.entries(flowPaths)) {
      expect(contractPaths[name as keyof typeof contractPaths], name).toBe(path);
    }
  });
});
