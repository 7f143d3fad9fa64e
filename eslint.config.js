/**
 * Lint = the import structure (issue 9), not style (Prettier does that):
 * - a console feature never imports another feature (STYLE §4);
 * - server areas import only areas below them, in this order; within an area routes →
 *   services → repos, and a repository never imports a service;
 * - no import cycles anywhere.
 * Tests may reach across (they build the whole app); generated and built files are ignored.
 */
import fs from 'node:fs';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const features = fs.readdirSync('apps/web/src/features');
const S = './apps/server/src';

/** Server areas from the bottom up; an area may import only areas on a lower level. */
const LEVELS = [
  ['platform'],
  ['accounts'],
  ['audit'],
  ['perm'],
  ['notify', 'codes'],
  ['realms'],
  ['captcha'],
  ['auth'],
  ['otp'],
  ['me', 'legacy', 'directory'],
  ['clients'],
  ['oauth'],
  // realm backends and the device CA: features on top of sign-in, administration and the provider
  ['federation', 'pki'],
  ['dashboard'],
  ['composition'],
];
const level = (area) => LEVELS.findIndex((l) => l.includes(area));
const areas = LEVELS.flat();
const layering = areas.flatMap((area) => {
  const above = areas.filter((other) => other !== area && level(other) >= level(area));
  return above.length
    ? [
        {
          target: `${S}/${area}`,
          from: above.map((a) => `${S}/${a}`),
          message: `${area}/ sits below these areas and must not import them (README "Adding an area")`,
        },
      ]
    : [];
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', 'data/**', '**/*.d.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { 'import-x': importX },
    settings: {
      // import-x parses the imported files itself to follow cycles: it needs the TS parser too.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: ['apps/server/tsconfig.json', 'apps/web/tsconfig.json', 'packages/contracts/tsconfig.json', 'tests/browser/tsconfig.json'],
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', `apps/server/src/test/**`],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((f) => ({
              target: `./apps/web/src/features/${f}`,
              from: './apps/web/src/features',
              except: [`./${f}`],
              message: 'a feature never imports another feature: move what both need to components/ or lib/',
            })),
            ...layering,
            { target: `${S}/**/*.repo.ts`, from: `${S}/**/*.{service,routes}.ts`, message: 'a repository never imports a service or a route' },
            { target: `${S}/**/*.service.ts`, from: `${S}/**/*.routes.ts`, message: 'a service never imports a route' },
            { target: S, from: ['./apps/web', './tests'], message: 'the server never imports the console or the tests' },
            { target: './apps/web', from: ['./apps/server', './tests'], message: 'the console never imports the server' },
            { target: './packages/contracts', from: ['./apps'], message: 'contracts import no app' },
          ],
        },
      ],
    },
  },
);
