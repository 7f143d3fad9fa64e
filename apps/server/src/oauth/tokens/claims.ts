/**
 * The user's claims by granted scope (OIDC Core §5.4), for the ID token and userinfo alike, so
 * the two never disagree (§5.3.2: userinfo `sub` equals the ID token's). Only claims of granted
 * scopes, only values the account has.
 */
import type { Account } from '../../accounts/accounts.repo.js';

/** The account fields claims are made of (the liveness query of access-tokens.ts reads exactly these). */
export type ClaimsAccount = Pick<Account, 'id' | 'username' | 'email' | 'phone' | 'updated_at'>;

export const scopeSet = (scope: string): Set<string> => new Set(scope.split(' ').filter(Boolean));

export function userClaims(account: ClaimsAccount, scopes: ReadonlySet<string>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  if (scopes.has('profile')) {
    out.name = account.username;
    out.preferred_username = account.username;
    out.updated_at = Math.floor(Number(account.updated_at) / 1000);
  }
  if (scopes.has('email') && account.email) {
    out.email = account.email;
    // No column records how an address was proven (registration without activation, an
    // administrator's edit, a binding code all end in the same row), and relying parties link
    // accounts on a verified address: claim only what we know (OIDC Core §5.1 "otherwise false").
    out.email_verified = false;
  }
  if (scopes.has('phone') && account.phone) out.phone_number = account.phone;
  return out;
}
