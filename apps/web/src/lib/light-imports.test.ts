import { describe, expect, it } from 'vitest';
import checks from '../../../../packages/contracts/src/checks.ts?raw';
import paths from '../../../../packages/contracts/src/paths.ts?raw';

describe('contracts modules the sign-in page loads', () => {
  // Importing zod (or anything that does) there would add ~90 KiB gzip (budget 150 KiB).
  it('checks.ts and paths.ts import nothing', () => {
    for (const [name, source] of [['checks.ts', checks], ['paths.ts', paths]] as const) {
      expect(source.length, name).toBeGreaterThan(100);
      expect(source, name).not.toMatch(/^\s*(import|export\s+\*|export\s+\{[^}]*\}\s+from)\s/m);
    }
  });
});
