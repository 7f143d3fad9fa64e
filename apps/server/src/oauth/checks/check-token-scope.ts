/**
 * `scope` at the token endpoint: a space-separated list (RFC 6749 §3.3) that must stay within
 * what was granted before — the family's scope on refresh (§6, AS-10: "MUST NOT include any
 * scope not originally granted"), the subject token's on exchange (RFC 8693 §2.1, AS-25), the
 * client's registration for client_credentials (§4.4.2, A-17). Wider → invalid_scope.
 */
import { InvalidScope } from '../errors.js';

export const scopeList = (scope: string | undefined): string[] => [...new Set((scope ?? '').split(' ').filter(Boolean))];

/** The scope to grant: `requested` when given (and within `allowed`), else `fallback`. */
export function checkTokenScope(requested: string | undefined, allowed: readonly string[], fallback: readonly string[] = allowed): string {
  if (requested === undefined) return fallback.join(' ');
  // one scope (the common case): the same answer as below, without the list
  if (requested !== '' && !requested.includes(' ')) {
    if (!allowed.includes(requested)) throw new InvalidScope(`scope ${requested.slice(0, 40)} was not granted`);
    return requested;
  }
  const asked = scopeList(requested);
  const outside = asked.filter((s) => !allowed.includes(s));
  if (outside.length > 0) throw new InvalidScope(`scope ${outside[0]!.slice(0, 40)} was not granted`);
  return asked.join(' ');
}
