import { describe, expect, it } from 'vitest';
import checks from '../../../../packages/contracts/src/checks.ts?raw';
import paths from '../../../../packages/contracts/src/paths.ts?raw';
import richProviders from '../app/rich-providers.tsx?raw';

describe('contracts modules the sign-in page loads', () => {
  // Importing zod (or anything that does) there would add ~90 KiB gzip (budget 150 KiB).
  it('checks.ts and paths.ts import nothing', () => {
    for (const [name, source] of [
      ['checks.ts', checks],
      ['paths.ts', paths],
    ] as const) {
      expect(source.length, name).toBeGreaterThan(100);
      expect(source, name).not.toMatch(/^\s*(import|export\s+\*|export\s+\{[^}]*\}\s+from)\s/m);
    }
  });

  // zod's JIT probe (`new Function`) is a CSP violation; lib/zod-config.ts turns it off,
  // which only works before the first schema is built.
  it('the providers of every antd screen set zod up before they import anything else', () => {
    expect(richProviders.match(/^import .*$/m)?.[0]).toBe("import '../lib/zod-config';");
  });
});
