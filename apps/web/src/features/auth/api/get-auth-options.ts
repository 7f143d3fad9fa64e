/** GET /api/users/auth/options: what a realm's sign-in screen offers, captcha policy included. */
import { api } from '../../../lib/api-client';
import { flowPaths } from '@umbo/contracts/paths';

/** The part of the answer the public screens use (contracts authOptionsResult). */
export interface AuthOptions {
  realmId: string;
  loginMethods: string[];
  registMethods: string[];
  findBackMethods: string[];
  /** country calling codes offered for phone numbers, e.g. ['86'] */
  loginRegions: string[];
  captchaPolicy: 'always' | 'after_failures';
  needActive: boolean;
  /** the realm's logo URL (https: or data:), '' for none */
  logo: string;
  /** issue 14: the backend's registration page of a realm behind an IT backend, when set */
  registUrl?: string;
}

export function getAuthOptions(realmId: string | undefined): Promise<AuthOptions> {
  const query = realmId ? `?realm_id=${encodeURIComponent(realmId)}` : '';
  return api.get<AuthOptions>(`${flowPaths.options}${query}`, { authCall: true });
}
