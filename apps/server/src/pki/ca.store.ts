/**
 * Loading and creating CAs (issue 13): the part of the CA service every other PKI service
 * needs — a CA's row, its current certificate, its signer — with the decrypted private keys
 * cached per process. Creation is race-safe: one CA per slot (unique), the loser re-reads.
 */
import crypto from 'node:crypto';
import { pkiPaths } from '@umbo/contracts';
import type { AuditActor, AuditService } from '../audit/audit.service.js';
import { MASTER_REALM } from '../perm/builtin-roles.js';
import type { Clock } from '../platform/clock.js';
import { newId, type Secrets } from '../platform/crypto.js';
import type { Db, Transact } from '../platform/db.js';
import type { CertRepo, CertRow } from './certs.repo.js';
import { subjectKeyIdOf, subjectOf } from './crl-der.js';
import { DAY_MS } from './defaults.js';
import type { CaRow, PkiRepo } from './pki.repo.js';
import { caExtensions, keyIdOf, newSerial, sha256Hex, signerFromPkcs8, type IssuerUrls, type Signer } from './profile.js';
import { x509 } from './x509.js';

export interface LoadedCa {
  row: CaRow;
  /** the CA's current certificate row */
  certRow: CertRow;
  cert: x509.X509Certificate;
  /** its subject as its certificate encodes it: the issuer name of what it signs */
  subjectDer: Uint8Array;
  signer: Signer;
  /** its SubjectKeyIdentifier: the AKI of what it signs */
  keyId: string;
}

export interface NewCa {
  kind: 'platform' | 'realm' | 'account';
  slot: string;
  realmId: string | null;
  accountId: string | null;
  /** null: self-signed (the platform root) */
  parent: LoadedCa | null;
  subject: x509.JsonName;
  notAfter: number;
  pathLen: number | undefined;
  pkcs8Pem: string;
  description: string;
  defaultIssueDays: number;
  maxIssueDays: number;
  cn: string;
  /** an operator-supplied root certificate (PKI_ROOT_CERT_FILE) instead of one we sign */
  importedCertPem?: string;
  /** the revoked CA this one replaces (it gives up the slot in the same transaction) */
  replaces?: string;
}

class SlotTaken extends Error {}

export const CERT_TYPE_OF_KIND = { platform: 'rootCa', realm: 'realmCa', account: 'accountCa' } as const;

export function createCaStore(deps: {
  pki: PkiRepo;
  certs: CertRepo;
  secrets: Secrets;
  clock: Clock;
  audit: AuditService;
  transact: Transact;
  publicUrl: string;
}) {
  const { pki, certs, secrets, clock, audit, transact } = deps;
  const base = deps.publicUrl.replace(/\/+$/, '');
  const signers = new Map<string, Promise<Signer>>();
  const parsed = new Map<string, { pem: string; cert?: x509.X509Certificate; keyId: string; subjectDer: Uint8Array }>();
  const creating = new Map<string, Promise<LoadedCa>>();
  /**
   * The chain of each slot as this process last read it (loadChainSlot). Issuance signs from
   * it without a read and stores the certificate only if the database still agrees
   * (certs.insertCertUnder): a change made by any instance is seen there, and the issuance is
   * signed again from a fresh read.
   */
  const chains = new Map<string, LoadedCa[]>();

  /** Where a certificate signed by CA `caId`, in realm `realmId`'s paths, finds its issuer, CRL and OCSP. */
  const urlsOf = (realmId: string, caId: string): IssuerUrls => ({
    crl: base + pkiPaths.publicCrl(realmId, caId),
    caIssuers: base + pkiPaths.publicCaCert(realmId, caId),
    ocsp: base + pkiPaths.publicOcsp(realmId, caId),
  });

  function signerOfRow(row: CaRow): Promise<Signer> {
    let s = signers.get(row.id);
    if (!s) {
      // the key of a CA never changes (renewal keeps it): decrypt once per process
      s = signerFromPkcs8(secrets.decrypt(row.key_sealed));
      signers.set(row.id, s);
      s.catch(() => signers.delete(row.id));
    }
    return s;
  }

  /**
   * What signing a CRL or an OCSP response needs (subject, key id) comes from the DER through
   * node:crypto and our own reader; the library's parse (pki/x509.ts) is made on the first read
   * of `cert`, so the CRL job does not load the library into a server that issues nothing
   * (issue 12 memory budget). A certificate without a SubjectKeyIdentifier takes x509's.
   */
  async function parsedOf(certRow: CertRow) {
    let p = parsed.get(certRow.id);
    if (!p) {
      const der = new Uint8Array(new crypto.X509Certificate(certRow.cert_pem).raw);
      const keyId = subjectKeyIdOf(der) ?? (await keyIdOf(new x509.X509Certificate(certRow.cert_pem)));
      p = { pem: certRow.cert_pem, keyId, subjectDer: subjectOf(der) };
      if (parsed.size > 5000) parsed.clear();
      parsed.set(certRow.id, p);
    }
    return p;
  }

  async function withCert(row: CaRow, certRow: CertRow): Promise<LoadedCa> {
    const p = await parsedOf(certRow);
    const signer = await signerOfRow(row);
    return {
      row,
      certRow,
      get cert() {
        return (p.cert ??= new x509.X509Certificate(p.pem));
      },
      keyId: p.keyId,
      subjectDer: p.subjectDer,
      signer,
    };
  }

  async function loadRow(row: CaRow, trx?: Db): Promise<LoadedCa> {
    const certRow = await certs.findById(row.cert_id, trx);
    if (!certRow) throw new Error(`CA ${row.id} has no certificate row`);
    return withCert(row, certRow);
  }

  /** The CA of `slot` and its parents (itself first), read fresh in one statement: what chainOf(loadSlot(slot)) answers. */
  async function loadChainSlot(slot: string): Promise<LoadedCa[] | undefined> {
    const rows = await pki.findChainBySlot(slot);
    if (!rows.length) return undefined;
    if (rows[0]!.ca.slot !== slot) throw new Error(`CA ${slot} has no certificate row`);
    const chain = await Promise.all(rows.map((r) => withCert(r.ca, r.cert)));
    if (chains.size > 10_000) chains.clear();
    chains.set(slot, chain);
    return chain;
  }

  /** The CA with that id, read fresh (its status and current certificate may change on any instance). */
  async function load(caId: string, trx?: Db): Promise<LoadedCa | undefined> {
    const row = await pki.findCaById(caId, trx);
    return row ? loadRow(row, trx) : undefined;
  }

  async function loadSlot(slot: string): Promise<LoadedCa | undefined> {
    const row = await pki.findCaBySlot(slot);
    return row ? loadRow(row) : undefined;
  }

  async function insertNew(n: NewCa, actor: AuditActor | null): Promise<void> {
    const id = newId();
    const certId = newId();
    const signerSelf = await signerFromPkcs8(n.pkcs8Pem);
    const spkiDer = crypto.createPublicKey(signerSelf.keyObject).export({ format: 'der', type: 'spki' });
    const now = clock.now();
    let cert: x509.X509Certificate;
    if (n.importedCertPem) {
      cert = new x509.X509Certificate(n.importedCertPem);
    } else {
      const serial = newSerial();
      const signer = n.parent?.signer ?? signerSelf;
      cert = await x509.X509CertificateGenerator.create({
        serialNumber: serial.hex,
        subject: n.subject,
        issuer: n.parent ? n.parent.cert.subjectName : n.subject,
        notBefore: new Date(now - 60_000),
        notAfter: new Date(n.notAfter),
        publicKey: new x509.PublicKey(new Uint8Array(spkiDer)),
        signingKey: signer.cryptoKey,
        signingAlgorithm: signer.algorithm,
        extensions: await caExtensions(
          spkiDer,
          n.pathLen,
          n.parent ? { keyId: n.parent.keyId, urls: urlsOf(n.realmId ?? MASTER_REALM, n.parent.row.id) } : undefined,
        ),
      });
    }
    const row: CaRow = {
      id,
      kind: n.kind,
      slot: n.slot,
      realm_id: n.realmId,
      account_id: n.accountId,
      parent_id: n.parent?.row.id ?? id,
      cert_id: certId,
      key_algorithm: signerSelf.label,
      key_sealed: secrets.encrypt(n.pkcs8Pem),
      description: n.description,
      default_issue_days: n.defaultIssueDays,
      max_issue_days: n.maxIssueDays,
      crl_counter: 0,
      created_at: now,
      updated_at: now,
    };
    const certRow = caCertRow(cert, {
      id: certId,
      caId: id,
      issuerCaId: n.parent?.row.id ?? id,
      realmId: n.realmId,
      accountId: n.accountId,
      type: CERT_TYPE_OF_KIND[n.kind],
      cn: n.cn,
      now,
    });
    await transact(async (trx) => {
      if (n.replaces && !(await pki.retireCaSlot(n.replaces, n.slot, `${n.slot}:retired:${n.replaces}`, trx))) throw new SlotTaken();
      if (!(await pki.insertCa(row, trx))) throw new SlotTaken();
      await certs.insertCert(certRow, trx);
      await audit.record(
        {
          realmId: n.realmId ?? MASTER_REALM,
          actor,
          action: n.replaces ? 'pki.ca.replace' : 'pki.ca.create',
          target: { type: 'ca', id, name: n.cn },
          result: 'ok',
          detail: { kind: n.kind, sn: certRow.sn, imported: Boolean(n.importedCertPem), ...(n.replaces ? { replaces: n.replaces } : {}) },
        },
        trx,
      );
    });
  }

  return {
    urlsOf,
    load,
    loadSlot,
    loadChainSlot,
    /** The chain of `slot` as loadChainSlot last read it in this process, if it did: to be checked when used. */
    cachedChainSlot: (slot: string): LoadedCa[] | undefined => chains.get(slot),
    /**
     * The CA of `slot`, made by `make()` when there is none yet. One creation per slot in this
     * process; across processes the unique slot decides and the loser re-reads the winner's CA.
     */
    async ensure(slot: string, make: () => Promise<NewCa>, actor: AuditActor | null): Promise<LoadedCa> {
      const found = await loadSlot(slot);
      if (found) return found;
      return once(slot, make, actor);
    },
    /**
     * A new CA for `slot` in place of the revoked one `make()` names in `replaces`: the
     * old one keeps its row, certificates and CRL under a retired slot. Parallel replacements
     * make one CA; the others answer it.
     */
    replace: (slot: string, make: () => Promise<NewCa>, actor: AuditActor | null) => once(slot, make, actor),
  };

  /** Runs `make` + insert once per slot in this process; a lost race across processes re-reads the winner. */
  function once(slot: string, make: () => Promise<NewCa>, actor: AuditActor | null): Promise<LoadedCa> {
    let p = creating.get(slot);
    if (!p) {
      p = (async () => {
        try {
          await insertNew(await make(), actor);
        } catch (err) {
          if (!(err instanceof SlotTaken)) throw err;
        }
        const ca = await loadSlot(slot);
        if (!ca) throw new Error(`CA ${slot} missing after creation`);
        return ca;
      })();
      creating.set(slot, p);
      const done = () => creating.delete(slot);
      p.then(done, done);
    }
    return p;
  }
}

/** The pki_certs row of a CA certificate. */
export function caCertRow(
  cert: x509.X509Certificate,
  o: { id: string; caId: string; issuerCaId: string; realmId: string | null; accountId: string | null; type: string; cn: string; now: number },
): CertRow {
  return {
    id: o.id,
    realm_id: o.realmId,
    account_id: o.accountId,
    ca_id: o.issuerCaId,
    subject_ca_id: o.caId,
    type: o.type,
    cn_type: null,
    cn: o.cn,
    san: '[]',
    sn: BigInt(`0x${cert.serialNumber}`).toString(10),
    key_id: null,
    description: '',
    issuer: cert.issuer,
    subject: cert.subject,
    fingerprint: sha256Hex(cert.rawData),
    ours: 1,
    superseded: 0,
    cert_pem: cert.toString('pem'),
    not_before: cert.notBefore.getTime(),
    not_after: cert.notAfter.getTime(),
    revoked_at: null,
    revoke_reason: null,
    created_at: o.now,
  };
}

export const daysFrom = (now: number, days: number) => now + days * DAY_MS;
export type CaStore = ReturnType<typeof createCaStore>;
