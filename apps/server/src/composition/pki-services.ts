/**
 * The device CA's services (issue 13), wired apart from services.ts to keep the composition
 * root readable: CAs and their store, managed keys, THE issuance service, revocation and CRLs,
 * certificate reads, expiry notices and the OCSP responder.
 */
import type { createAuditService } from '../audit/audit.service.js';
import { createPreferencesReader } from '../me/me.settings.js';
import type { createNotifyService } from '../notify/notify.service.js';
import { createCaService } from '../pki/ca.service.js';
import { createCaStore } from '../pki/ca.store.js';
import { createCertsService } from '../pki/certs.service.js';
import { createCrlService } from '../pki/crl.js';
import { createExpiryNotices } from '../pki/expiry-notices.js';
import { createIssueService } from '../pki/issue.js';
import { createKeysService } from '../pki/keys.service.js';
import { createOcspResponder } from '../pki/ocsp/responder.js';
import { createRevokeService } from '../pki/revoke.js';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { Secrets } from '../platform/crypto.js';
import type { Transact } from '../platform/db.js';
import type { Logger } from '../platform/logger.js';
import type { RealmPolicy } from '../realms/realm-policy.js';
import type { Repos } from './repos.js';

export interface DeviceCaInputs {
  config: Config;
  repos: Repos;
  secrets: Secrets;
  clock: Clock;
  transact: Transact;
  audit: ReturnType<typeof createAuditService>;
  notify: ReturnType<typeof createNotifyService>;
  settingsOf: RealmPolicy['settingsOf'];
  log: Logger;
}

export function createDeviceCa(i: DeviceCaInputs) {
  const { config, repos, secrets, clock, transact, audit } = i;
  const pkiStore = createCaStore({ pki: repos.pki, certs: repos.pkiCerts, secrets, clock, audit, transact, publicUrl: config.publicUrl });
  const pkiCa = createCaService({
    store: pkiStore,
    pki: repos.pki,
    certs: repos.pkiCerts,
    clock,
    audit,
    transact,
    siteTitle: config.siteTitle,
    validitiesOf: i.settingsOf,
    rootImport: config.pkiRootImport,
  });
  const pkiKeys = createKeysService({ pki: repos.pki, certs: repos.pkiCerts, secrets, clock, audit, transact });
  const pkiIssue = createIssueService({ ca: pkiCa, keys: pkiKeys, certs: repos.pkiCerts, audit, clock, transact });
  const pkiCrl = createCrlService({ store: pkiStore, pki: repos.pki, certs: repos.pkiCerts, clock, transact });
  const pkiRevoke = createRevokeService({ ca: pkiCa, certs: repos.pkiCerts, crl: pkiCrl, audit, clock, transact });
  // reads, plus statusOf for the OCSP responder: `pkiCerts.statusOf(realmId, caId, serialDecimal)`
  const pkiCerts = { ...createCertsService({ certs: repos.pkiCerts, clock }), statusOf: pkiIssue.statusOf };
  // mail to the owner 30 / 7 days (realm setting) before a certificate ends, once each
  const pkiExpiry = createExpiryNotices({
    repo: repos.pkiExpiry,
    transact,
    notify: i.notify,
    settingsOf: i.settingsOf,
    preferencesOf: createPreferencesReader(repos.me),
    siteTitle: config.siteTitle,
    clock,
    log: i.log.child({ name: 'pki-expiry' }),
  });
  // the OCSP responder (RFC 6960): answers signed by the issuing CA itself
  const pkiOcsp = createOcspResponder({
    source: {
      ca: async (realmId, caId) => {
        const signer = await pkiCa.signerOf(realmId, caId);
        return signer && { certDer: signer.certDer, privateKey: signer.keyObject };
      },
      certStatus: pkiCerts.statusOf,
    },
    clock,
    onError: (err) => i.log.error({ err }, 'ocsp: could not answer'),
  });
  return { pkiCa, pkiKeys, pkiIssue, pkiCrl, pkiRevoke, pkiCerts, pkiExpiry, pkiOcsp };
}
