/**
 * Packages loaded on first use instead of at start (issue 12 memory budget): a library a
 * configuration never calls — the other database's driver, Redis without REDIS_URL, the CA's
 * certificate library, phone metadata outside +86 — would otherwise hold its source and objects
 * in the heap for the life of the process. CommonJS packages only: `require` keeps their callers
 * synchronous and gives the same instance an `import` would (ES-only packages use `import()`).
 */
import { createRequire } from 'node:module';

const requirePackage = createRequire(import.meta.url);

/** A function answering the package `name`, required by its first call; `init` runs once on it. */
export function onFirstUse<T>(name: string, init?: (lib: T) => void): () => T {
  let lib: { value: T } | undefined;
  return () => {
    if (!lib) {
      const value = requirePackage(name) as T;
      init?.(value);
      lib = { value };
    }
    return lib.value;
  };
}
