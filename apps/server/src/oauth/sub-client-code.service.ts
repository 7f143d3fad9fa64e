/**
 * Sub-client authorization codes (SPEC §3 allowAuthCode; DESIGN.md §4 "Sub client"): the
 * PARENT client, holding a user's access token, obtains an authorization code of one of its sub
 * clients for the same user, without another sign-in. Steps:
 *
 * 1. the token is an active user access token (access-tokens.ts) of the realm its issuer names;
 * 2. the sub client exists in that realm, is enabled, is a child of the token's client, and has
 *    allowAuthCode — else refused (neither works when the flag is off, for a client that is not
 *    the parent, or across realms: issue 12);
 * 3. the redirect URI is one the SUB client registered (exact match, AS-01); without one, the
 *    sub client's only registered URI — never any other URL (no open redirect, AS-03);
 * 4. an optional S256 code_challenge (a public sub client needs one at the token endpoint);
 * 5. the code: scope = the token's ∩ the sub client's, auth_time of the original sign-in,
 *    `parent_family_id` = the token's family, so revoking the parent's grant revokes it (and
 *    a revoked parent grant makes the code worthless at the token endpoint).
 */
import type { AuditService } from '../audit/audit.service.js';
import type { ClientRepo } from '../clients/clients.repo.js';
import type { Clock } from '../platform/clock.js';
import { randomString, type Secrets } from '../platform/crypto.js';
import type { Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import { CODE_TTL_SEC } from './defaults.js';
import type { OAuthCodeRepo } from './store/codes.repo.js';
import { realmClaimedBy, type ValidateAccessToken } from './tokens/access-tokens.js';
import { CODE_HASH_PURPOSE, CODE_LENGTH } from './authorize/authorize.service.js';
import { successRedirect } from './authorize/redirect.js';
import { isPublicClient, S256_CHALLENGE } from './checks/check-pkce-request.js';

export interface SubClientCodeInput {
  /** the parent's user access token */
  token: string;
  /** the sub client's client_id */
  clientId: string;
  redirectUri?: string | undefined;
  state?: string | undefined;
  codeChallenge?: string | undefined;
  codeChallengeMethod?: string | undefined;
}

export interface SubClientCodeDeps {
  validateAccessToken: ValidateAccessToken;
  clients: Pick<ClientRepo, 'findByClientId'>;
  codes: Pick<OAuthCodeRepo, 'insert'>;
  audit: Pick<AuditService, 'record'>;
  transact: Transact;
  secrets: Secrets;
  clock: Clock;
  issuer(realmId: string): string;
  publicUrl: string;
}

export function createSubClientCodeService(deps: SubClientCodeDeps) {
  async function issue(input: SubClientCodeInput, request: { ip: string; userAgent: string }) {
    const realmId = realmClaimedBy(input.token, deps.publicUrl);
    assertThat(realmId, 'UNAUTHORIZED');
    const check = await deps.validateAccessToken(realmId, input.token);
    if (!check.ok || !check.account || !check.claims.gid) throw fail('UNAUTHORIZED');
    const { claims } = check;
    const account = check.account;
    const parentFamilyId = check.claims.gid;

    const sub = input.clientId.length <= 128 ? await deps.clients.findByClientId(realmId, input.clientId) : undefined;
    assertThat(sub && !sub.disabled && sub.parentId === check.clientRef, 'FORBIDDEN', { reason: 'not_a_sub_client' });
    assertThat(sub.allowAuthCode, 'FORBIDDEN', { reason: 'auth_code_not_allowed' });

    let redirectUri = input.redirectUri;
    if (redirectUri === undefined || redirectUri === '') {
      assertThat(sub.redirectUris.length === 1, 'INVALID_PARAMETER', { field: 'redirect_uri' });
      redirectUri = sub.redirectUris[0]!;
    }
    assertThat(sub.redirectUris.includes(redirectUri), 'INVALID_PARAMETER', { field: 'redirect_uri' });
    if (input.codeChallenge !== undefined || input.codeChallengeMethod !== undefined) {
      assertThat(input.codeChallengeMethod === 'S256' && S256_CHALLENGE.test(input.codeChallenge ?? ''), 'INVALID_PARAMETER', { field: 'code_challenge' });
    }
    if (isPublicClient(sub) && !input.codeChallenge) throw fail('INVALID_PARAMETER', { field: 'code_challenge' });

    const scope = claims.scope
      .split(' ')
      .filter((s) => s && sub.scopes.includes(s))
      .join(' ');
    const code = randomString(CODE_LENGTH);
    const now = deps.clock.now();
    // the code and its audit event: both or neither
    await deps.transact(async (trx) => {
      await deps.codes.insert(
        {
          code_hash: deps.secrets.hash(CODE_HASH_PURPOSE, code),
          realm_id: realmId,
          client_ref: sub.id,
          account_id: account.id,
          redirect_uri: redirectUri,
          scope,
          nonce: null,
          code_challenge: input.codeChallenge ?? null,
          auth_time: (claims.auth_time ?? claims.iat) * 1000,
          sid: claims.sid ?? null,
          parent_family_id: parentFamilyId,
          created_at: now,
          expires_at: now + CODE_TTL_SEC * 1000,
          used_at: null,
          family_id: null,
          response_sealed: null,
        },
        trx,
      );
      await deps.audit.record(
        {
          realmId,
          actor: { id: account.id, name: account.username },
          action: 'oauth.code.issued',
          target: { type: 'client', id: sub.id, name: sub.clientId },
          result: 'ok',
          request,
          detail: { clientId: sub.clientId, parentClientId: claims.client_id, via: 'sub_client_code' },
        },
        trx,
      );
    });
    const redirectTo = successRedirect(redirectUri, code, input.state, deps.issuer(realmId));
    return { code, redirectUri, redirectTo };
  }

  return { issue };
}

export type SubClientCodeService = ReturnType<typeof createSubClientCodeService>;
