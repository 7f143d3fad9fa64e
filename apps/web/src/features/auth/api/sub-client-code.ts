/**
 * POST /api/users/oauth/sub-client-code (contracts oauth-tokens.ts): the parent client's user
 * access token buys the sub client's authorization code; the answer names the URL to go to,
 * always one the sub client registered.
 */
// types only: this light page loads no zod (lib/zod-config.ts)
import type { SubClientCodeBody, SubClientCodeResult } from '@umbo/contracts/oauth-tokens';
import { oauthTokenPaths } from '@umbo/contracts/paths';
import { api } from '../../../lib/api-client';

export function getSubClientCode(body: SubClientCodeBody) {
  // authCall: a refused token is this page's failure, not the end of a console session
  return api.post<SubClientCodeResult>(oauthTokenPaths.subClientCode, body, { authCall: true });
}
