/**
 * The CAs (issue 13, DESIGN.md §4): platform root (made at first start, or the operator's,
 * PKI_ROOT_CERT_FILE + PKI_ROOT_KEY_FILE) → realm intermediate (realmMiddleCertValidity,
 * pathLen 1) → account CA (accountCertValidity, pathLen 0), each made on first need. Renewal
 * keeps the key and the subject (issued certificates keep verifying: same SKI) with a new
 * serial and validity — never for a revoked CA (1114): a revoked account CA is replaced by a
 * new one with a new key. CA private keys are sealed at rest and never answered (CA-05).
 */
import crypto, { type KeyObject, type webcrypto } from 'node:crypto';
import fs from 'node:fs';
import type { CaView } from '@umbo/contracts';
import type { AuditActor, AuditService } from '../audit/audit.service.js';
import { MASTER_REALM } from '../perm/builtin-roles.js';
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/crypto.js';
import type { Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import { caCertRow, CERT_TYPE_OF_KIND, daysFrom, type CaStore, type LoadedCa, type NewCa } from './ca.store.js';
import type { CertRepo } from './certs.repo.js';
import { ACCOUNT_CA_DEFAULT_ISSUE_DAYS, ACCOUNT_CA_MAX_ISSUE_DAYS, CA_CURVE, RENEW_REPEAT_MS, ROOT_CURVE, ROOT_VALIDITY_DAYS } from './defaults.js';
import type { PkiRepo } from './pki.repo.js';
import { caViewOf } from './ca-view.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { caExtensions, newCaKey, newSerial, signerFromPkcs8 } from './profile.js';
import { statusOfRow } from './status.js';
import { x509 } from './x509.js';

export interface CaAccount {
  id: string;
  realmId: string;
  username: string;
}

export interface CaCaller {
  actor: AuditActor | null;
  request?: { ip: string; userAgent: string };
}

/** What an OCSP responder (pki/ocsp) needs of a CA: its certificate and its key. */
export interface CaSigner {
  caId: string;
  realmId: string | null;
  certDer: Uint8Array;
  certPem: string;
  privateKey: webcrypto.CryptoKey;
  keyObject: KeyObject;
}

/** A CA's distinguished name: CN, OU (what it serves), O (the site). */
function nameOf(cn: string, ou: string | undefined, o: string): x509.JsonName {
  const name: x509.JsonName = [{ CN: [cn] }];
  if (ou) name.push({ OU: [ou] });
  name.push({ O: [o] });
  return name;
}

export function createCaService(deps: {
  store: CaStore;
  pki: PkiRepo;
  certs: CertRepo;
  clock: Clock;
  audit: AuditService;
  transact: Transact;
  siteTitle: string;
  /** the realm's CA validities (realm settings), days */
  validitiesOf: (realmId: string) => Promise<{ realmMiddleCertValidity: number; accountCertValidity: number }>;
  /** PKI_ROOT_CERT_FILE + PKI_ROOT_KEY_FILE: the operator's root, used when the database has none */
  rootImport?: { certFile: string; keyFile: string } | undefined;
}) {
  const { store, pki, certs, clock, audit, transact } = deps;

  async function makeRoot(): Promise<NewCa> {
    const base = { kind: 'platform' as const, slot: 'platform', realmId: null, accountId: null, parent: null, pathLen: undefined };
    const days = { description: 'platform root', defaultIssueDays: ROOT_VALIDITY_DAYS, maxIssueDays: ROOT_VALIDITY_DAYS };
    if (deps.rootImport) {
      const certPem = fs.readFileSync(deps.rootImport.certFile, 'utf8');
      const keyPem = fs.readFileSync(deps.rootImport.keyFile, 'utf8');
      const cert = new x509.X509Certificate(certPem);
      const signer = await signerFromPkcs8(keyPem);
      const pkcs8Pem = signer.keyObject.export({ format: 'pem', type: 'pkcs8' }).toString();
      // the key must be the certificate's, and the certificate a CA: else refuse to start signing
      const spki = crypto.createPublicKey(signer.keyObject).export({ format: 'der', type: 'spki' });
      if (!Buffer.from(cert.publicKey.rawData).equals(spki)) throw new Error('PKI_ROOT_KEY_FILE is not the key of PKI_ROOT_CERT_FILE');
      if (!cert.getExtension(x509.BasicConstraintsExtension)?.ca) throw new Error('PKI_ROOT_CERT_FILE is not a CA certificate');
      const cn = cert.subjectName.getField('CN')[0] ?? 'platform root';
      return { ...base, ...days, subject: [], notAfter: cert.notAfter.getTime(), pkcs8Pem, cn, importedCertPem: certPem };
    }
    const cn = `${deps.siteTitle} Platform Root CA`;
    const { pkcs8Pem } = await newCaKey(ROOT_CURVE);
    return { ...base, ...days, subject: nameOf(cn, undefined, deps.siteTitle), notAfter: daysFrom(clock.now(), ROOT_VALIDITY_DAYS), pkcs8Pem, cn };
  }

  const platformRoot = () => store.ensure('platform', makeRoot, null);

  /** A parent that may sign: its current certificate neither revoked nor expired. */
  function assertUsable(ca: LoadedCa) {
    assertThat(statusOfRow(ca.certRow, clock.now()) === 'valid', 'CA_UNAVAILABLE', { caId: ca.row.id });
  }

  async function realmCa(realmId: string): Promise<LoadedCa> {
    const found = await store.loadSlot(`realm:${realmId}`);
    if (found) return found;
    const root = await platformRoot();
    return store.ensure(
      `realm:${realmId}`,
      async () => {
        assertUsable(root);
        const v = await deps.validitiesOf(realmId);
        const cn = `${realmId} Realm CA`;
        return {
          kind: 'realm',
          slot: `realm:${realmId}`,
          realmId,
          accountId: null,
          parent: root,
          subject: nameOf(cn, `realm ${realmId}`, deps.siteTitle),
          notAfter: Math.min(daysFrom(clock.now(), v.realmMiddleCertValidity), root.certRow.not_after),
          pathLen: 1,
          pkcs8Pem: (await newCaKey(CA_CURVE)).pkcs8Pem,
          description: `realm ${realmId}`,
          defaultIssueDays: v.accountCertValidity,
          maxIssueDays: v.realmMiddleCertValidity,
          cn,
        };
      },
      null,
    );
  }

  /**
   * A new account CA of `a`, always with a fresh key. A replacement of a revoked one gets a
   * name of its own ("key 2", …): relying parties match issuers and CRLs by name, and the
   * revoked CA keeps publishing its CRL under the old one.
   */
  async function accountCaSpec(a: CaAccount, parent: LoadedCa, replaces?: string): Promise<NewCa> {
    assertUsable(parent);
    const v = await deps.validitiesOf(a.realmId);
    const cn = `${a.username} Account CA`;
    const generation = replaces ? (await pki.countAccountCas(a.id)) + 1 : 1;
    return {
      kind: 'account',
      slot: `account:${a.id}`,
      realmId: a.realmId,
      accountId: a.id,
      parent,
      // the account id keeps the name unique in the realm, whatever the account is called later
      subject: nameOf(cn, generation > 1 ? `account ${a.id} key ${generation}` : `account ${a.id}`, deps.siteTitle),
      notAfter: Math.min(daysFrom(clock.now(), v.accountCertValidity), parent.certRow.not_after),
      pathLen: 0,
      pkcs8Pem: (await newCaKey(CA_CURVE)).pkcs8Pem,
      description: `${a.username} CA`.slice(0, 50).padEnd(4, '_'),
      defaultIssueDays: ACCOUNT_CA_DEFAULT_ISSUE_DAYS,
      maxIssueDays: ACCOUNT_CA_MAX_ISSUE_DAYS,
      cn,
      ...(replaces ? { replaces } : {}),
    };
  }

  /**
   * The account's CA, made on first need. With `replacingFor` (issuance: the caller acting) a
   * revoked one is replaced by a new CA with a NEW key — never renewed with the old one; the
   * revoked CA and what it issued stay in the intermediate's CRL.
   */
  async function accountCa(a: CaAccount, replacingFor?: CaCaller): Promise<LoadedCa> {
    const found = await store.loadSlot(`account:${a.id}`);
    if (found && !(replacingFor && found.certRow.revoked_at !== null)) return found;
    const parent = await realmCa(a.realmId);
    if (found) return store.replace(found.row.slot, () => accountCaSpec(a, parent, found.row.id), replacingFor?.actor ?? null);
    return store.ensure(`account:${a.id}`, () => accountCaSpec(a, parent), null);
  }

  /**
   * chainOf(accountCa(a, replacingFor)) in one statement when no replacement is due (issuance,
   * every request); `cached`: this process's last read, for a caller that checks it (chain.ts).
   */
  async function accountChain(a: CaAccount, replacingFor?: CaCaller, o: { cached?: boolean } = {}): Promise<LoadedCa[]> {
    const cached = o.cached ? store.cachedChainSlot(`account:${a.id}`) : undefined;
    if (cached) return cached;
    const found = await store.loadChainSlot(`account:${a.id}`);
    if (found && !(replacingFor && found[0]!.certRow.revoked_at !== null)) return found;
    return chainOf(await accountCa(a, replacingFor));
  }

  /** Replace (domainCert.update): a revoked account CA of the realm gets its successor now rather than at the account's next issuance. */
  async function replaceRevoked(realmId: string, caId: string, caller: CaCaller): Promise<LoadedCa> {
    const old = await accountCaIn(realmId, caId);
    assertThat(old.certRow.revoked_at !== null, 'INVALID_PARAMETER', { field: 'caId', reason: 'ca_not_revoked' });
    const acc = await pki.findCaAccount(old.row.account_id!);
    assertThat(acc && acc.realm_id === realmId, 'NOT_FOUND');
    const a = { id: acc.id, realmId, username: acc.username };
    // replaced already (a second click, the account's own issuance): answer its successor as it is
    return accountCa(a, old.row.slot === `account:${acc.id}` ? caller : undefined);
  }

  const view = (ca: LoadedCa, accountName: string | null = null): CaView => caViewOf(ca, clock.now(), accountName);

  /** The chain of an account CA, itself first: account CA, realm intermediate, platform root. */
  async function chainOf(ca: LoadedCa): Promise<LoadedCa[]> {
    const out = [ca];
    let cur = ca;
    while (cur.row.parent_id && cur.row.parent_id !== cur.row.id && out.length < 5) {
      const parent = await store.load(cur.row.parent_id);
      if (!parent) break;
      out.push(parent);
      cur = parent;
    }
    return out;
  }

  /**
   * Renews a CA (same key, same subject, new serial and validity); the previous certificate stays
   * valid. Parallel renewals of one certificate make one renewal: the others answer the CA as
   * that one left it; a renewal overtaken by a revocation stores nothing (1114).
   */
  async function renew(ca: LoadedCa, caller: CaCaller): Promise<LoadedCa> {
    // a revoked key stays revoked: a new certificate for it would undo the revocation
    assertThat(ca.certRow.revoked_at === null, 'CA_REVOKED', { caId: ca.row.id });
    const now = clock.now();
    // A repeat of a renewal just made (a double click, or a parallel request that read the CA
    // after the winner committed) answers that renewal rather than shifting validity by seconds.
    if (now - ca.certRow.created_at < RENEW_REPEAT_MS && (await certs.isRenewal(ca.certRow.id))) return ca;
    const selfSigned = ca.row.parent_id === ca.row.id;
    const parent = selfSigned ? ca : await store.load(ca.row.parent_id!);
    if (!parent) throw fail('CA_UNAVAILABLE');
    if (!selfSigned) assertUsable(parent);
    const v = ca.row.realm_id ? await deps.validitiesOf(ca.row.realm_id) : undefined;
    const days = ca.row.kind === 'account' ? v!.accountCertValidity : ca.row.kind === 'realm' ? v!.realmMiddleCertValidity : ROOT_VALIDITY_DAYS;
    const notAfter = selfSigned ? daysFrom(now, days) : Math.min(daysFrom(now, days), parent.certRow.not_after);
    const spkiDer = new Uint8Array(ca.cert.publicKey.rawData);
    const pathLen = ca.cert.getExtension(x509.BasicConstraintsExtension)?.pathLength;
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: newSerial().hex,
      subject: ca.cert.subjectName,
      issuer: parent.cert.subjectName,
      notBefore: new Date(now - 60_000),
      notAfter: new Date(notAfter),
      publicKey: new x509.PublicKey(spkiDer),
      signingKey: parent.signer.cryptoKey,
      signingAlgorithm: parent.signer.algorithm,
      extensions: await caExtensions(
        spkiDer,
        pathLen,
        selfSigned ? undefined : { keyId: parent.keyId, urls: store.urlsOf(ca.row.realm_id ?? MASTER_REALM, parent.row.id) },
      ),
    });
    const type = CERT_TYPE_OF_KIND[ca.row.kind as NewCa['kind']];
    const row = caCertRow(cert, {
      id: newId(),
      caId: ca.row.id,
      issuerCaId: parent.row.id,
      realmId: ca.row.realm_id,
      accountId: ca.row.account_id,
      type,
      cn: ca.certRow.cn,
      now,
    });
    const renewed = await transact(async (trx) => {
      // first, and conditional: the certificate we renew must still be the current, unrevoked one
      if (!(await certs.supersedeOnce(ca.certRow.id, trx))) return false;
      await certs.insertCert(row, trx);
      await pki.updateCa(ca.row.id, { cert_id: row.id, updated_at: now }, trx);
      await certs.insertRecord(
        {
          id: newId(),
          realm_id: ca.row.realm_id,
          account_id: ca.row.account_id,
          kind: 'renewCa',
          cert_id: row.id,
          sn: row.sn,
          cn: row.cn,
          actor_id: caller.actor?.id ?? null,
          actor_name: caller.actor?.name ?? null,
          reason: null,
          at: now,
        },
        trx,
      );
      await audit.record(
        {
          realmId: ca.row.realm_id ?? MASTER_REALM,
          actor: caller.actor,
          action: 'pki.ca.renew',
          target: { type: 'ca', id: ca.row.id, name: row.cn },
          result: 'ok',
          request: caller.request,
          detail: { sn: row.sn, previousSn: ca.certRow.sn, expireAt: row.not_after },
        },
        trx,
      );
      return true;
    });
    const current = (await store.load(ca.row.id))!;
    // lost the race: to a parallel renewal (answer its result) or to a revocation (refuse)
    if (!renewed) assertThat(current.certRow.revoked_at === null, 'CA_REVOKED', { caId: ca.row.id });
    return current;
  }

  /** An account CA of the realm, or 1004 (another realm's id answers as unknown). */
  async function accountCaIn(realmId: string, caId: string): Promise<LoadedCa> {
    const ca = await store.load(caId);
    assertThat(ca && ca.row.kind === 'account' && ca.row.realm_id === realmId, 'NOT_FOUND');
    return ca;
  }

  return {
    platformRoot,
    /**
     * At start: the platform root exists afterwards. Made when missing; one already there is not
     * read, so a start does not load the certificate library (pki/x509.ts) for a server that
     * never uses its CA (issue 12 memory budget); the first use reads it as before.
     */
    async ensurePlatformRoot(): Promise<void> {
      if (!(await pki.findCaBySlot('platform'))) await platformRoot();
    },
    realmCa,
    accountCa,
    accountChain,
    accountCaIn,
    replaceRevoked,
    chainOf,
    view,
    load: store.load,
    urlsOf: store.urlsOf,
    assertUsable,

    /**
     * For the OCSP responder: the CA `caId` as seen from realm `realmId`'s paths — the realm's
     * intermediate, an account CA of the realm, or the platform root (it issued the realm's
     * intermediate). Undefined for anything else.
     */
    async signerOf(realmId: string, caId: string): Promise<CaSigner | undefined> {
      const ca = await store.load(caId);
      if (!ca) return undefined;
      if (ca.row.kind === 'platform') {
        if (!(await store.loadSlot(`realm:${realmId}`))) return undefined;
      } else if (ca.row.realm_id !== realmId) return undefined;
      return {
        caId: ca.row.id,
        realmId: ca.row.realm_id,
        certDer: new Uint8Array(ca.cert.rawData),
        certPem: ca.certRow.cert_pem,
        privateKey: ca.signer.cryptoKey,
        keyObject: ca.signer.keyObject,
      };
    },

    /** Edit CA (SPEC §2): the caller's own account CA's description and issuance periods. */
    async editOwn(
      a: CaAccount,
      patch: { description?: string | undefined; defaultIssueValidPeriod?: number | undefined; maxIssueValidPeriod?: number | undefined },
      caller: CaCaller,
    ): Promise<CaView> {
      const ca = await accountCa(a);
      const def = patch.defaultIssueValidPeriod ?? ca.row.default_issue_days;
      const max = patch.maxIssueValidPeriod ?? ca.row.max_issue_days;
      assertThat(def <= max, 'INVALID_PARAMETER', { field: 'defaultIssueValidPeriod', reason: 'validation.period_order' });
      const changes = Object.keys(patch).filter((k) => patch[k as keyof typeof patch] !== undefined);
      await transact(async (trx) => {
        await pki.updateCa(
          ca.row.id,
          { description: patch.description ?? ca.row.description, default_issue_days: def, max_issue_days: max, updated_at: clock.now() },
          trx,
        );
        await audit.record(
          {
            realmId: a.realmId,
            actor: caller.actor,
            action: 'pki.ca.edit',
            target: { type: 'ca', id: ca.row.id, name: ca.certRow.cn },
            result: 'ok',
            request: caller.request,
            changes,
          },
          trx,
        );
      });
      return view((await store.load(ca.row.id))!, a.username);
    },

    renew,

    async listAccountCas(realmId: string, q: { q?: string | undefined; cursor?: string | undefined; limit: number }) {
      const after = decodeCursor(q.cursor);
      const rows = await pki.listAccountCas(realmId, { ...(q.q ? { q: q.q } : {}), ...(after ? { after } : {}), limit: q.limit + 1 });
      const page = rows.slice(0, q.limit);
      const items: CaView[] = [];
      for (const r of page) {
        const { account_name, ...row } = r;
        const ca = await store.load(row.id);
        if (ca) items.push(view(ca, account_name ?? null));
      }
      const last = page[page.length - 1];
      return { items, next: rows.length > q.limit && last ? encodeCursor(last.created_at, last.id) : null };
    },
  };
}

export type CaService = ReturnType<typeof createCaService>;
