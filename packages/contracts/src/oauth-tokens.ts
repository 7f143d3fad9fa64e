/**
 * Sub-client authorization codes (SPEC §3 allowAuthCode, issue 12): the parent client's user
 * access token buys an authorization code of one of its sub clients for the same user. Used by
 * the public console page /newauth/user_redirect_authcode_by_users_authcode, which sends the
 * browser to `redirectTo` (always a URI the sub client registered).
 */
import { z } from 'zod';

export const subClientCodeBody = z.object({
  /** the parent's access token (or `Authorization: Bearer`) */
  token: z.string().min(1).max(8192).optional(),
  /** the sub client's client_id */
  client_id: z.string().min(1).max(128),
  /** one of the sub client's registered redirect URIs; default its only one */
  redirect_uri: z.string().max(2000).optional(),
  state: z.string().max(1000).optional(),
  /** RFC 7636 S256 challenge: a public sub client needs one */
  code_challenge: z.string().max(128).optional(),
  code_challenge_method: z.string().max(10).optional(),
});
export type SubClientCodeBody = z.infer<typeof subClientCodeBody>;

export const subClientCodeResult = z.object({
  code: z.string(),
  redirectUri: z.string(),
  /** redirectUri with code, state and iss (RFC 9207) appended */
  redirectTo: z.string(),
});
export type SubClientCodeResult = z.infer<typeof subClientCodeResult>;
