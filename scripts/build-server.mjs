#!/usr/bin/env node
/**
 * Compiles the server to plain JavaScript: apps/server/src/main.ts → apps/server/dist/main.js
 * (one ESM file and its source map), which `npm start` runs with node.
 *
 * esbuild bundles our own code and the workspace package @umbo/contracts (consumed as
 * TypeScript source, so it cannot stay external). Every npm dependency declared in
 * apps/server/package.json stays external and is loaded from node_modules at run time, as
 * under tsx; a bare import of anything else fails the build, so an undeclared dependency is
 * caught here rather than in production. Type checking is `npm run typecheck`'s job.
 *
 * Usage: node scripts/build-server.mjs [--quiet]   — or import { buildServer }.
 */
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_DIR = path.join(root, 'apps/server');
export const SERVER_OUT = path.join(SERVER_DIR, 'dist/main.js');

/** The package name of a bare import path (`@scope/name/sub` → `@scope/name`). */
function packageName(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * esbuild escapes non-ASCII characters in strings and identifiers but keeps them in comments
 * (and regular expression literals); one "§" or "—" left in a comment makes V8 hold the whole
 * bundle's source as a two-byte string, twice its size in memory for the life of the process
 * (issue 12 memory budget). A line of esbuild's output that starts with `//` or `/*` starts a
 * comment, and one that starts with `*` is inside one (esbuild never wraps an expression before
 * an operator): on such lines, when the comment runs to the line's end, each non-ASCII UTF-16
 * unit becomes "?", one for one, so the source map's columns hold. Anything else is left as is.
 */
function asciiComments(file) {
  const text = fs.readFileSync(file, 'utf8');
  if (!/[^\x00-\x7f]/.test(text)) return;
  const out = text
    .split('\n')
    .map((line) => {
      if (!/[^\x00-\x7f]/.test(line)) return line;
      const t = line.trimStart();
      const end = t.indexOf('*/');
      const comment = t.startsWith('//') || ((t.startsWith('/*') || t.startsWith('*')) && (end === -1 || end === t.trimEnd().length - 2));
      return comment ? line.replace(/[^\x00-\x7f]/g, '?') : line;
    })
    .join('\n');
  fs.writeFileSync(file, out);
}

/** `outfile`: elsewhere than apps/server/dist (the bench builds its own copy; it must stay under the
 * repository so that node_modules resolves). */
export async function buildServer({ quiet = false, outfile = SERVER_OUT } = {}) {
  const { build } = await import('esbuild');
  const pkg = JSON.parse(fs.readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8'));
  const declared = new Set(Object.keys(pkg.dependencies ?? {}));
  const builtins = new Set(builtinModules);
  const dependencies = {
    name: 'dependencies',
    setup(b) {
      // Bare specifiers only: relative and absolute paths are our own files.
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        const spec = args.path;
        if (spec.startsWith('node:') || builtins.has(spec) || builtins.has(packageName(spec))) return { path: spec, external: true };
        const name = packageName(spec);
        if (name.startsWith('@umbo/')) return undefined; // workspace source: bundled
        if (declared.has(name)) return { path: spec, external: true };
        return { errors: [{ text: `"${name}" is imported but is not a dependency in apps/server/package.json` }] };
      });
    },
  };

  fs.rmSync(path.dirname(outfile), { recursive: true, force: true });
  const started = performance.now();
  const result = await build({
    entryPoints: [path.join(SERVER_DIR, 'src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // Stack traces name our source files and functions: nothing is minified.
    minify: false,
    keepNames: true,
    tsconfig: path.join(SERVER_DIR, 'tsconfig.json'),
    plugins: [dependencies],
    logLevel: quiet ? 'error' : 'warning',
    metafile: true,
  });
  asciiComments(outfile);
  const bytes = fs.statSync(outfile).size;
  if (!quiet) {
    const inputs = Object.keys(result.metafile.inputs).length;
    process.stdout.write(
      `server: ${path.relative(root, outfile)} (${(bytes / 1024).toFixed(0)} KiB from ${inputs} modules) in ${Math.round(performance.now() - started)} ms\n`,
    );
  }
  return { file: outfile, bytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildServer({ quiet: process.argv.includes('--quiet') }).catch((err) => {
    // esbuild has already printed its messages.
    if (!err?.errors) process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
