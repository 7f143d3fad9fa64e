/**
 * Step 1 of the composition root: every repository, each the one writer of its tables
 * (issue 9), and the two stores that live in Redis when the process has one. Repositories
 * depend on the database handle only, never on each other or on a service.
 */
import { createAccountRepo } from '../accounts/accounts.repo.js';
import { createClientRepo } from '../clients/clients.repo.js';
import { createAuditRepo } from '../audit/audit.repo.js';
import { createServiceAccountRepo } from '../directory/service-accounts.repo.js';
import { createAuthEpochRepo } from '../auth/auth-cache.repo.js';
import { createSessionRepo } from '../auth/sessions.repo.js';
import { createRedisThrottleStore } from '../auth/throttle/redis-store.js';
import type { ThrottleStore } from '../auth/throttle/store.js';
import { createThrottleRepo } from '../auth/throttle/throttle.repo.js';
import { createCodeRepo } from '../codes/codes.repo.js';
import { createMailLinkRepo } from '../codes/mail-links.repo.js';
import { createRedisCodeStore } from '../codes/redis-store.js';
import type { CodeStore } from '../codes/store.js';
import { createMeRepo } from '../me/me.repo.js';
import { createOutboxRepo } from '../notify/outbox.repo.js';
import { createOtpRepo } from '../otp/otp.repo.js';
import { createSigningKeyRepo } from '../oauth/keys/keys.repo.js';
import { createOAuthCodeRepo } from '../oauth/store/codes.repo.js';
import { createDeviceCodeRepo } from '../oauth/store/device-codes.repo.js';
import { createOAuthConsentRepo } from '../oauth/store/consents.repo.js';
import { createFamilyRepo } from '../oauth/store/families.repo.js';
import { createRefreshTokenRepo } from '../oauth/store/refresh-tokens.repo.js';
import { createRevokedTokenRepo } from '../oauth/store/revoked-tokens.repo.js';
import { createRoleRepo } from '../perm/roles.repo.js';
import { createCertRepo } from '../pki/certs.repo.js';
import { createExpiryNoticeRepo } from '../pki/expiry-notices.repo.js';
import { createFederatedIdentityRepo } from '../federation/upstream/federated-identities.repo.js';
import { createPkiRepo } from '../pki/pki.repo.js';
import type { Db } from '../platform/db.js';
import type { RedisClient } from '../platform/redis.js';
import { createRealmRepo } from '../realms/realms.repo.js';
import { createBigdataRepo } from '../federation/bigdata/bigdata.repo.js';
import { createAliLivingRepo } from '../federation/aliliving/aliliving.repo.js';
import { createShadowLinkRepo } from '../federation/it/shadow.repo.js';

export function createRepos(db: Db) {
  return {
    accounts: createAccountRepo(db),
    audit: createAuditRepo(db),
    serviceAccounts: createServiceAccountRepo(db),
    realms: createRealmRepo(db),
    roles: createRoleRepo(db),
    sessions: createSessionRepo(db),
    authEpoch: createAuthEpochRepo(db),
    throttle: createThrottleRepo(db),
    codes: createCodeRepo(db),
    mailLinks: createMailLinkRepo(db),
    outbox: createOutboxRepo(db),
    otp: createOtpRepo(db),
    me: createMeRepo(db),
    clients: createClientRepo(db),
    oauthKeys: createSigningKeyRepo(db),
    oauthCodes: createOAuthCodeRepo(db),
    oauthDeviceCodes: createDeviceCodeRepo(db),
    oauthConsents: createOAuthConsentRepo(db),
    oauthFamilies: createFamilyRepo(db),
    oauthRefreshTokens: createRefreshTokenRepo(db),
    oauthRevokedTokens: createRevokedTokenRepo(db),
    pki: createPkiRepo(db),
    pkiCerts: createCertRepo(db),
    pkiExpiry: createExpiryNoticeRepo(db),
    federatedIdentities: createFederatedIdentityRepo(db),
    bigdata: createBigdataRepo(db),
    aliLiving: createAliLivingRepo(db),
    itShadowLinks: createShadowLinkRepo(db),
  };
}

export type Repos = ReturnType<typeof createRepos>;

/**
 * Codes, captchas and counters live in Redis when REDIS_URL is set, else in the database:
 * either way every server process sees the same ones.
 */
export interface Stores {
  codes: CodeStore;
  throttle: ThrottleStore;
}

export function createStores(repos: Repos, redis: RedisClient | undefined): Stores {
  return {
    codes: redis ? createRedisCodeStore(redis) : repos.codes,
    throttle: redis ? createRedisThrottleStore(redis) : repos.throttle,
  };
}
