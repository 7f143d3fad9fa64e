/**
 * The OAuth 2.0 / OpenID Connect provider's services (issue 12), wired apart from
 * services.ts to keep the composition root readable: signing keys per realm, the
 * authorization endpoint and its interaction, the device grant, token minting, client
 * authentication, sub-client codes and the authorization records.
 */
import { createOAuthKeysService } from '../oauth/keys/keys.service.js';
import { createDeviceService } from '../oauth/device/device.service.js';
import { createRecordsService } from '../oauth/records.service.js';
import { createAuthorizeService } from '../oauth/authorize/authorize.service.js';
import { createInteractionService } from '../oauth/authorize/interaction.service.js';
import { createClientCache } from '../clients/client-cache.js';
import { createClientAuth } from '../oauth/checks/client-auth.js';
import { createSubClientCodeService } from '../oauth/sub-client-code.service.js';
import { createTokenEvents } from '../oauth/tokens/token-events.js';
import { createOAuthTokensService } from '../oauth/tokens/tokens.service.js';
import type { createAuditService } from '../audit/audit.service.js';
import type { createSessionService } from '../auth/sessions.service.js';
import type { createThrottleService } from '../auth/throttle/throttle.service.js';
import type { createClientsService } from '../clients/clients.service.js';
import type { createTokenRevocation } from '../oauth/tokens/revocation.js';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { Secrets } from '../platform/crypto.js';
import type { Transact } from '../platform/db.js';
import type { Repos, Stores } from './repos.js';

export interface OAuthProviderInputs {
  config: Config;
  repos: Repos;
  stores: Stores;
  secrets: Secrets;
  clock: Clock;
  transact: Transact;
  audit: ReturnType<typeof createAuditService>;
  sessions: ReturnType<typeof createSessionService>;
  throttle: ReturnType<typeof createThrottleService>;
  clients: ReturnType<typeof createClientsService>;
  oauthRevocation: ReturnType<typeof createTokenRevocation>;
}

export function createOAuthProvider(i: OAuthProviderInputs) {
  const { config, repos, stores, secrets, clock, transact, audit, sessions, throttle, clients, oauthRevocation } = i;

  // the OAuth provider's signing keys (issue 12): per realm, rotated with overlap
  const oauthKeys = createOAuthKeysService({
    repo: repos.oauthKeys,
    secrets,
    clock,
    audit,
    transact,
    publicUrl: config.publicUrl,
    realmExists: async (realmId) => Boolean(await repos.realms.findRealmById(realmId)),
  });

  // OAuth records (account/oauthList): revoking one ends the grant's token families
  const oauthRecords = createRecordsService({
    consents: repos.oauthConsents,
    clients: repos.clients,
    accounts: repos.accounts,
    // the (account, client) families and every family derived from them (sub-client tokens)
    revokeFor: (o, trx) => oauthRevocation.revokeFor({ accountId: o.accountId, clientRef: o.clientRef, reason: 'consent_revoked' }, trx),
    audit,
    transact,
  });

  // the authorization endpoint, the console's sign-in interaction, consent and the SSO session (issue 12)
  const oauthAuthorize = createAuthorizeService({
    realmName: async (realmId) => (await repos.realms.findRealmById(realmId))?.name,
    findClient: (realmId, clientId) => repos.clients.findByClientId(realmId, clientId),
    findClientById: (id) => repos.clients.findById(id),
    codes: repos.oauthCodes,
    consents: repos.oauthConsents,
    sessions,
    secrets,
    clock,
    transact,
    audit,
    issuer: oauthKeys.issuer,
    publicUrl: config.publicUrl,
  });
  const oauthInteraction = createInteractionService({ authorize: oauthAuthorize, clock });

  // the device authorization grant (RFC 8628): codes for devices, the user's decision on /device
  const oauthDevice = createDeviceService({
    repo: repos.oauthDeviceCodes,
    findClient: (id) => repos.clients.findById(id),
    realmName: async (realmId) => (await repos.realms.findRealmById(realmId))?.name,
    throttle,
    audit,
    secrets,
    clock,
    transact,
    publicUrl: config.publicUrl,
  });

  // the token side of the provider (issue 12): minting for every grant, access-token checks,
  // client authentication (counted in the shared throttle store), sub-client codes
  const oauthTokens = createOAuthTokensService({
    keys: oauthKeys,
    families: repos.oauthFamilies,
    refreshTokens: repos.oauthRefreshTokens,
    codes: repos.oauthCodes,
    deviceCodes: repos.oauthDeviceCodes,
    accounts: repos.accounts,
    clients: repos.clients,
    revocation: oauthRevocation,
    secrets,
    clock,
    transact,
    publicUrl: config.publicUrl,
  });
  // clients that authenticate, kept while the auth epoch holds (clients/client-cache.ts)
  const oauthClientCache = createClientCache({
    findByClientId: (realmId, clientId) => repos.clients.findByClientId(realmId, clientId),
    readEpoch: repos.authEpoch.fresh,
  });
  const oauthClientAuth = createClientAuth({
    findClient: oauthClientCache.findByClientId,
    verifySecret: clients.verifySecret,
    realmExists: oauthKeys.realmExists,
    useAssertionId: repos.oauthRevokedTokens.addOnce,
    throttle: stores.throttle,
    secrets,
    clock,
    issuer: oauthKeys.issuer,
  });
  const oauthTokenEvents = createTokenEvents(audit, clock);
  const oauthSubClientCodes = createSubClientCodeService({
    validateAccessToken: oauthTokens.validateAccessToken,
    clients: repos.clients,
    codes: repos.oauthCodes,
    audit,
    transact,
    secrets,
    clock,
    issuer: oauthKeys.issuer,
    publicUrl: config.publicUrl,
  });

  return {
    oauthKeys,
    oauthDevice,
    oauthRecords,
    oauthAuthorize,
    oauthInteraction,
    oauthTokens,
    oauthClientCache,
    oauthClientAuth,
    oauthTokenEvents,
    oauthSubClientCodes,
  };
}
