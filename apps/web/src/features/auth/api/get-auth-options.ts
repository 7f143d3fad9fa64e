/** GET /api/users/auth/options: what a realm's sign-in screen offers, captcha policy included. */
import { api } from '../../../lib/api-client';
import { flowPaths } from '../../../lib/flow-paths';

/** The part of the answer the password form uses (contracts authOptionsResult). */
export interface AuthOptions {
  realmId: string;
  loginMethods: string[];
  captchaPolicy: 'always' | 'after_failures';
}

export function getAuthOptions(realmId: string | undefined): Promise<AuthOptions> {
  const query = realmId ? `?realm_id=${encodeURIComponent(realmId)}` : '';
  return api.get<AuthOptions>(`${flowPaths.options}${query}`, { authCall: true });
}
