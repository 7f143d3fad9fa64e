/**
 * What the grants are built from (composition passes it through the token service). Grants
 * read and write through these only: the repositories of the provider's tables, the mint, the
 * revocation, and the access-token check.
 */
import type { AccountRepo } from '../../accounts/accounts.repo.js';
import type { ClientRepo } from '../../clients/clients.repo.js';
import type { Clock } from '../../platform/clock.js';
import type { Secrets } from '../../platform/crypto.js';
import type { Transact } from '../../platform/db.js';
import type { OAuthCodeRepo } from '../store/codes.repo.js';
import type { DeviceCodeRepo } from '../store/device-codes.repo.js';
import type { FamilyRepo } from '../store/families.repo.js';
import type { RefreshTokenRepo } from '../store/refresh-tokens.repo.js';
import type { ValidateAccessToken } from '../tokens/access-tokens.js';
import type { Mint } from '../tokens/mint.js';
import type { TokenRevocation } from '../tokens/revocation.js';

/**
 * Fault injection for the A-45 tests ONLY (never set outside a test): called inside the
 * grant's transaction between its writes; a throw there must leave nothing half done.
 */
export interface GrantFaults {
  /** authorization_code: after the code is marked used, before the family is written */
  afterCodeConsume?: (() => void | Promise<void>) | undefined;
  /** refresh_token with rotation: after the new refresh token is inserted, before the old one is marked used */
  afterRefreshInsert?: (() => void | Promise<void>) | undefined;
}

export interface GrantDeps {
  mint: Mint;
  revocation: TokenRevocation;
  validateAccessToken: ValidateAccessToken;
  codes: Pick<OAuthCodeRepo, 'consume' | 'find' | 'setFamily'>;
  /** the device authorization grant (RFC 8628): oauth_device_codes */
  deviceCodes: Pick<DeviceCodeRepo, 'findByDeviceCode' | 'admitPoll' | 'slowDown' | 'redeem'>;
  families: Pick<FamilyRepo, 'find'>;
  refreshTokens: Pick<RefreshTokenRepo, 'findWithFamily' | 'consume'>;
  accounts: Pick<AccountRepo, 'findAccountById'>;
  clients: Pick<ClientRepo, 'findByClientId'>;
  secrets: Secrets;
  clock: Clock;
  transact: Transact;
  faults: GrantFaults;
}
