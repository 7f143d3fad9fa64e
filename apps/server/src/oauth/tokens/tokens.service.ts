/**
 * `services.oauthTokens` (issue 12 plan): minting, access-token validation, revocation and the
 * grants of the token endpoint, over the provider's repositories and the realm's keys.
 *
 *   mint.issue / mint.refresh / mint.save   — tokens for a grant (mint.ts)
 *   validateAccessToken(realmId, token)     — access-tokens.ts
 *   revokeFor({accountId?, clientRef?, familyId?, realmId?, reason}, trx?)
 *   revokeAllOfAccount(accountId, reason, trx?, realmId?)
 *   revokeAccessToken(realmId, jti, expiresAt)
 *   accountOfToken(token)                   — the account behind a provider access token of any
 *                                             realm (legacy *.do calls), or undefined
 *   grants                                  — grant_type → handler (grants/index.ts)
 *   faults                                  — A-45 fault injection, tests only
 */
import type { AccountRepo } from '../../accounts/accounts.repo.js';
import type { ClientRepo } from '../../clients/clients.repo.js';
import type { Clock } from '../../platform/clock.js';
import type { Secrets } from '../../platform/crypto.js';
import type { Transact } from '../../platform/db.js';
import type { GrantFaults } from '../grants/deps.js';
import { createGrants } from '../grants/index.js';
import type { JwsAlg } from '../jwt.js';
import type { OAuthCodeRepo } from '../store/codes.repo.js';
import type { DeviceCodeRepo } from '../store/device-codes.repo.js';
import type { FamilyRepo } from '../store/families.repo.js';
import type { RefreshTokenRepo } from '../store/refresh-tokens.repo.js';
import { createAccessTokenValidator, realmClaimedBy } from './access-tokens.js';
import { createMint } from './mint.js';
import type { TokenRevocation } from './revocation.js';

export interface OAuthTokensDeps {
  keys: {
    sign(realmId: string, alg: JwsAlg, header: { typ: string }, payload: object): Promise<string>;
    verify(realmId: string, jwt: string, opts: { typ: string }): Promise<Record<string, unknown>>;
    issuer(realmId: string): string;
  };
  families: FamilyRepo;
  refreshTokens: RefreshTokenRepo;
  codes: OAuthCodeRepo;
  deviceCodes: DeviceCodeRepo;
  accounts: AccountRepo;
  clients: ClientRepo;
  revocation: TokenRevocation;
  secrets: Secrets;
  clock: Clock;
  transact: Transact;
  /** config.publicUrl: where issuers live */
  publicUrl: string;
}

export function createOAuthTokensService(deps: OAuthTokensDeps) {
  const { secrets, clock, transact, revocation } = deps;
  const mint = createMint({ sign: deps.keys.sign, issuer: deps.keys.issuer, families: deps.families, refreshTokens: deps.refreshTokens, secrets });
  const validateAccessToken = createAccessTokenValidator({ verify: deps.keys.verify, families: deps.families, now: () => clock.now() });
  const faults: GrantFaults = {};
  const grants = createGrants({
    mint,
    revocation,
    validateAccessToken,
    codes: deps.codes,
    deviceCodes: deps.deviceCodes,
    families: deps.families,
    refreshTokens: deps.refreshTokens,
    accounts: deps.accounts,
    clients: deps.clients,
    secrets,
    clock,
    transact,
    faults,
  });

  /** The account of a live user access token of whichever realm issued it (legacy *.do calls). */
  async function accountOfToken(token: string) {
    const realmId = realmClaimedBy(token, deps.publicUrl);
    if (!realmId) return undefined;
    const check = await validateAccessToken(realmId, token);
    if (!check.ok || !check.account) return undefined;
    return deps.accounts.findAccountById(realmId, check.account.id);
  }

  return {
    mint,
    validateAccessToken,
    revokeFor: revocation.revokeFor,
    revokeAllOfAccount: revocation.revokeAllOfAccount,
    revokeAccessToken: revocation.revokeAccessToken,
    revocation,
    accountOfToken,
    grants,
    faults,
  };
}

export type OAuthTokensService = ReturnType<typeof createOAuthTokensService>;
