/**
 * zod without its JIT. zod 4 compiles object parsers with `new Function`, and probes whether it
 * may as soon as an object schema is built; our CSP has no 'unsafe-eval' (SECURITY.md A-41), so
 * the probe is refused and reported as a violation on every screen that loads a contracts
 * schema. `jitless` skips the probe and the compiled path; parsing is the same.
 * app/rich-providers.tsx imports this first: every screen that can build a schema renders
 * inside it, and its chunk is evaluated before theirs are fetched. Not main.tsx: zod's core
 * module (~4 KiB gzip) would then join the sign-in page's first load.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
