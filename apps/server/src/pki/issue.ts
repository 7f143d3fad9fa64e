/**
 * THE issuance service (issue 13; STYLE.md §3): every certificate we sign for an account goes
 * through `issue` — the console and API today, device enrollment (EST, claim tokens, MQTT) and
 * certificate-bound OAuth clients next — so the policy lives here once, with no HTTP:
 *   proof of possession (CA-03) → key rules → CN/SAN rules (SPEC §5) → CA usable → validity
 *   within the CA's maximum and its own validity → random serial (CA-01) → the profile (CA-02,
 *   nothing copied from the CSR) → certificate + issue record + audit event in ONE transaction.
 * Reissue keeps key and subject with a new serial; set cert attaches an external certificate.
 */
import { IPV4, isDomainName, isEmail, isHttpUrl, type CnType, type SanEntry } from '@umbo/contracts';
import type { AuditService } from '../audit/audit.service.js';
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/crypto.js';
import type { Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import type { CaAccount, CaCaller, CaService } from './ca.service.js';
import type { LoadedCa } from './ca.store.js';
import type { CertRepo, CertRow } from './certs.repo.js';
import { asChainChanged, createChainRunner } from './chain.js';
import { BACKDATE_MAX_MS, CHAIN_MAX_DEPTH, DAY_MS, DEVICE_ID } from './defaults.js';
import { parseCertPem, parseChainPem, parseCsr } from './input.js';
import { encodeLeaf } from './cert-der.js';
import type { KeysService } from './keys.service.js';
import { keyInfoOf, newSerial, pemOf, sha256Hex, subjectText, type KeyInfo, type SanJson } from './profile.js';
import { statusOfRow } from './status.js';
import { x509 } from './x509.js';

/** A certificate just issued, with what a certificate view shows beside its row. */
export type IssuedCert = CertRow & { key_name: string | null; ca_revoked: boolean };

export interface IssueInput {
  account: CaAccount;
  type: 'device' | 'service';
  /** exactly one of csrPem / keyId */
  csrPem?: string | undefined;
  keyId?: string | undefined;
  cnType: CnType;
  cn: string;
  san: SanEntry[];
  notBeforeTs?: number | undefined;
  expireAtTs?: number | undefined;
  desc: string;
  caller: CaCaller;
}

const SAN_CHECK: Record<SanEntry['type'], (v: string) => boolean> = {
  dns: isDomainName,
  ip: (v) => IPV4.test(v),
  email: isEmail,
  uri: isHttpUrl,
};
const CN_CHECK: Record<CnType, (v: string) => boolean> = {
  deviceId: (v) => DEVICE_ID.test(v),
  dns: isDomainName,
  ip: (v) => IPV4.test(v),
  email: isEmail,
};
const SAN_OF_CN: Partial<Record<CnType, SanEntry['type']>> = { dns: 'dns', ip: 'ip', email: 'email' };

/** SPEC §5 rules for the common name and every SAN entry (SAN_INVALID {entry}); the CN joins the SANs when it is a name. */
export function checkNames(cnType: CnType, cn: string, san: SanEntry[]): SanEntry[] {
  assertThat(CN_CHECK[cnType](cn), 'SAN_INVALID', { entry: `cn:${cn}` });
  for (const e of san) assertThat(SAN_CHECK[e.type](e.value), 'SAN_INVALID', { entry: `${e.type}:${e.value}` });
  const out = [...san];
  const t = SAN_OF_CN[cnType];
  // clients match names against the SAN only (RFC 6125): a DNS/IP/email CN is repeated there
  if (t && !out.some((e) => e.type === t && e.value.toLowerCase() === cn.toLowerCase())) out.unshift({ type: t, value: cn });
  return out;
}

const sanJson = (san: SanEntry[]): SanJson[] => san.map((e) => ({ type: e.type === 'uri' ? 'url' : e.type, value: e.value }));

export function createIssueService(deps: { ca: CaService; keys: KeysService; certs: CertRepo; audit: AuditService; clock: Clock; transact: Transact }) {
  const { ca: cas, keys, certs, audit, clock, transact } = deps;

  /** The account's usable chain, signed under by `sign` (chain.ts: the process's copy, checked when storing). */
  const underChain = createChainRunner({ ca: cas, clock });

  function validity(ca: LoadedCa, notBeforeTs: number | undefined, expireAtTs: number | undefined, fallbackDays?: number) {
    const now = clock.now();
    const maxDays = ca.row.max_issue_days;
    const nb = notBeforeTs ?? now;
    const ea = expireAtTs ?? Math.min(nb + (fallbackDays ?? ca.row.default_issue_days) * DAY_MS, ca.certRow.not_after);
    const ok = nb >= now - BACKDATE_MAX_MS && ea > nb && ea > now && ea - nb <= maxDays * DAY_MS && nb >= ca.certRow.not_before && ea <= ca.certRow.not_after;
    assertThat(ok, 'VALIDITY_INVALID', { maxDays, caExpireAtTs: ca.certRow.not_after });
    return { nb, ea };
  }

  /** Signs, then writes certificate + record + audit event in one transaction. */
  async function signAndStore(a: {
    account: CaAccount;
    /** the account CA first, then its parents: current when the certificate is stored, or ChainChanged */
    chain: LoadedCa[];
    kind: 'issue' | 'reissue';
    type: 'device' | 'service';
    spkiDer: Uint8Array;
    /** the key's facts, checked by keyInfoOf once per issuance */
    key: KeyInfo;
    cnType: CnType;
    cn: string;
    san: SanEntry[];
    nb: number;
    ea: number;
    keyId: string | null;
    /** reissue: the certificate renewed, which must still be unrevoked when the new one is stored */
    reissueOf?: string;
    /** the managed key's name, for the answer */
    keyName: string | null;
    desc: string;
    caller: CaCaller;
  }): Promise<IssuedCert> {
    const ca = a.chain[0]!;
    const serial = newSerial();
    // the encoding keeps whole seconds: the row says what the certificate says
    const nb = Math.floor(a.nb / 1000) * 1000;
    const ea = Math.floor(a.ea / 1000) * 1000;
    const der = encodeLeaf({
      serialHex: serial.hex,
      issuerSubjectDer: ca.subjectDer,
      issuerKeyIdHex: ca.keyId,
      notBefore: nb,
      notAfter: ea,
      cn: a.cn,
      spkiDer: a.spkiDer,
      key: a.key,
      type: a.type,
      san: sanJson(a.san),
      urls: cas.urlsOf(a.account.realmId, ca.row.id),
      signer: ca.signer.keyObject,
    });
    const now = clock.now();
    const row: CertRow = {
      id: newId(),
      realm_id: a.account.realmId,
      account_id: a.account.id,
      ca_id: ca.row.id,
      subject_ca_id: null,
      type: a.type,
      cn_type: a.cnType,
      cn: a.cn,
      san: JSON.stringify(a.san),
      sn: serial.decimal,
      key_id: a.keyId,
      description: a.desc,
      issuer: ca.cert.subject,
      subject: subjectText(a.cn),
      fingerprint: sha256Hex(der),
      ours: 1,
      superseded: 0,
      cert_pem: pemOf('CERTIFICATE', der),
      not_before: nb,
      not_after: ea,
      revoked_at: null,
      revoke_reason: null,
      created_at: now,
    };
    // from a CSR only inserts follow: one statement on PostgreSQL (certs.insertTogether)
    const write = a.reissueOf || a.keyId ? transact : certs.insertTogether;
    const chainFacts = a.chain.map((c) => c.row);
    const stored = write(async (trx) => {
      // checked again where it counts: a revocation or a key deletion that committed while we
      // signed wins, and nothing is stored (PostgreSQL waits here for one still running)
      if (a.reissueOf) assertThat(await certs.lockUnrevoked(a.reissueOf, trx), 'CERT_REVOKED');
      if (a.keyId) await keys.lockIn(a.account, a.keyId, trx);
      // and the CAs: the one that signed still current, none above it revoked (chain.ts)
      await certs.insertCertUnder(row, chainFacts, trx);
      await certs.insertRecord(recordOf(row, a.kind, a.caller, now), trx);
      await audit.record(
        {
          realmId: a.account.realmId,
          actor: a.caller.actor,
          action: `pki.cert.${a.kind}`,
          target: { type: 'cert', id: row.id, name: row.cn },
          result: 'ok',
          request: a.caller.request,
          detail: { sn: row.sn, type: row.type, caId: ca.row.id },
        },
        trx,
      );
    });
    await stored.catch((err: unknown) => Promise.reject(asChainChanged(err)));
    // answered as stored, with what the list would join: the key's name, and no CA above it
    // revoked (insertCertUnder checked the chain as it stored)
    return { ...row, key_name: a.keyName, ca_revoked: false };
  }

  /** Follows `cert` up through `chain` to a CA of ours (signatures checked), at most CHAIN_MAX_DEPTH steps. */
  async function leadsToOurs(cert: x509.X509Certificate, chain: x509.X509Certificate[], ours: LoadedCa[]): Promise<boolean> {
    const candidates = [...ours.map((c) => ({ cert: c.cert, ours: true })), ...chain.map((c) => ({ cert: c, ours: false }))];
    let cur = cert;
    for (let depth = 0; depth < CHAIN_MAX_DEPTH; depth++) {
      let next: { cert: x509.X509Certificate; ours: boolean } | undefined;
      for (const c of candidates) {
        if (c.cert.subject !== cur.issuer) continue;
        if (await cur.verify({ publicKey: c.cert.publicKey, signatureOnly: true }).catch(() => false)) {
          next = c;
          break;
        }
      }
      if (!next) return false;
      if (next.ours) return true;
      if (next.cert.subject === next.cert.issuer) return false;
      cur = next.cert;
    }
    return false;
  }

  return {
    async issue(i: IssueInput): Promise<IssuedCert> {
      // everything about the request is checked before a CA is touched (or made)
      let spkiDer: Uint8Array;
      let key: KeyInfo;
      let keyId: string | null = null;
      let keyName: string | null = null;
      if (i.keyId !== undefined) {
        const own = await keys.own(i.account, i.keyId);
        keyId = own.id;
        keyName = own.name;
        spkiDer = new Uint8Array(new x509.PublicKey(own.public_key_pem).rawData);
        key = keyInfoOf(spkiDer);
      } else {
        const csr = await parseCsr(i.csrPem);
        spkiDer = csr.spkiDer;
        // the KeyObject that verified the CSR's signature, when there is one
        key = keyInfoOf(csr.publicKey ?? spkiDer);
      }
      const san = checkNames(i.cnType, i.cn, i.san);
      return underChain(i.account, i.caller, (chain) => {
        const { nb, ea } = validity(chain[0]!, i.notBeforeTs, i.expireAtTs);
        return signAndStore({
          account: i.account,
          chain,
          kind: 'issue',
          type: i.type,
          spkiDer,
          key,
          cnType: i.cnType,
          cn: i.cn,
          san,
          nb,
          ea,
          keyId,
          keyName,
          desc: i.desc,
          caller: i.caller,
        });
      });
    },

    /** Reissue (renew): same key, subject, SANs and period length; new serial. The old certificate stays as it is. */
    async reissue(account: CaAccount, certId: string, caller: CaCaller): Promise<IssuedCert> {
      const old = await certs.findOwn(account.id, certId);
      assertThat(old && old.realm_id === account.realmId && old.ours === 1, 'NOT_FOUND');
      assertThat(old.revoked_at === null, 'CERT_REVOKED');
      const spkiDer = new Uint8Array(new x509.X509Certificate(old.cert_pem).publicKey.rawData);
      const san = JSON.parse(old.san) as SanEntry[];
      return underChain(account, caller, (chain) => {
        const ca = chain[0]!;
        const days = Math.max(1, Math.min(ca.row.max_issue_days, Math.round((old.not_after - old.not_before) / DAY_MS)));
        const { nb, ea } = validity(ca, undefined, undefined, days);
        return signAndStore({
          account,
          chain,
          kind: 'reissue',
          type: old.type as 'device' | 'service',
          spkiDer,
          key: keyInfoOf(spkiDer),
          cnType: (old.cn_type ?? 'deviceId') as CnType,
          cn: old.cn,
          san,
          nb,
          ea,
          keyId: old.key_id,
          keyName: old.key_name,
          reissueOf: old.id,
          desc: old.description,
          caller,
        });
      });
    },

    /**
     * Set cert / complete: attach an externally issued certificate to a managed key. Attaching
     * the same certificate again (a double click, a fleet retrying, parallel requests) answers
     * the row already attached: one row, one import record, one audit event.
     */
    async setCert(
      account: CaAccount,
      keyId: string,
      body: { certPem: string; chainPem: string; allowUnknownCa: boolean; desc: string },
      caller: CaCaller,
    ): Promise<CertRow> {
      const key = await keys.own(account, keyId);
      const cert = parseCertPem(body.certPem);
      const chain = parseChainPem(body.chainPem);
      assertThat(Buffer.from(cert.publicKey.rawData).equals(Buffer.from(new x509.PublicKey(key.public_key_pem).rawData)), 'CERT_KEY_MISMATCH');
      const accountCa = await cas.accountCa(account);
      // A revoked account CA vouches for nothing: its chain is not "ours" (attach needs allowUnknownCa).
      const ours = accountCa.certRow.revoked_at === null && (await leadsToOurs(cert, chain, await cas.chainOf(accountCa)));
      assertThat(ours || body.allowUnknownCa, 'CHAIN_UNVERIFIED');
      const ski = cert.getExtension(x509.SubjectAlternativeNameExtension);
      const san: SanEntry[] = [];
      for (const n of ski?.names.items ?? []) {
        if (n.type === 'dns' || n.type === 'ip' || n.type === 'email') san.push({ type: n.type, value: n.value });
        if (n.type === 'url') san.push({ type: 'uri', value: n.value });
      }
      const now = clock.now();
      const cn = cert.subjectName.getField('CN')[0] ?? cert.subject;
      const row: CertRow = {
        id: newId(),
        realm_id: account.realmId,
        account_id: account.id,
        // not in our CRLs: the issuing CA (ours or not) tracks it under its own row
        ca_id: null,
        subject_ca_id: null,
        type: 'device',
        cn_type: null,
        cn: cn.slice(0, 255),
        san: JSON.stringify(san.slice(0, 50)),
        sn: BigInt(`0x${cert.serialNumber}`).toString(10),
        key_id: key.id,
        description: body.desc,
        issuer: cert.issuer.slice(0, 1000),
        subject: cert.subject.slice(0, 1000),
        fingerprint: sha256Hex(cert.rawData),
        ours: ours ? 1 : 0,
        superseded: 0,
        cert_pem: cert.toString('pem'),
        not_before: cert.notBefore.getTime(),
        not_after: cert.notAfter.getTime(),
        revoked_at: null,
        revoke_reason: null,
        created_at: now,
      };
      const stored = await transact(async (trx) => {
        // the key row locked first: parallel attaches of one key run one after the other, and a
        // deleted key gets nothing (1004)
        await keys.lockIn(account, key.id, trx);
        const attached = await certs.findOnKey(key.id, row.fingerprint, trx);
        if (attached) return attached;
        await certs.insertCert(row, trx);
        await certs.insertRecord(recordOf(row, 'import', caller, now), trx);
        await audit.record(
          {
            realmId: account.realmId,
            actor: caller.actor,
            action: 'pki.cert.import',
            target: { type: 'cert', id: row.id, name: row.cn },
            result: 'ok',
            request: caller.request,
            detail: { sn: row.sn, ours },
          },
          trx,
        );
        return row;
      });
      return stored;
    },

    /**
     * For the OCSP responder: the status of the certificate `serial` (decimal) issued by CA
     * `caId`, as seen from realm `realmId`'s paths; unknown when that CA issued no such
     * certificate there (or is not visible from that realm).
     */
    async statusOf(
      realmId: string,
      caId: string,
      serial: string,
    ): Promise<{ status: 'good' } | { status: 'revoked'; revokedAt: number; reason: import('@umbo/contracts').RevokeReason | null } | { status: 'unknown' }> {
      if (!/^\d{1,60}$/.test(serial)) return { status: 'unknown' };
      const row = await certs.findBySerial(caId, BigInt(serial).toString(10));
      if (!row || row.realm_id !== realmId) return { status: 'unknown' };
      if (row.revoked_at !== null)
        return { status: 'revoked', revokedAt: row.revoked_at, reason: (row.revoke_reason as import('@umbo/contracts').RevokeReason | null) ?? null };
      return { status: 'good' };
    },

    statusOfRow: (r: CertRow) => statusOfRow(r, clock.now()),
    leadsToOurs,
  };
}

export function recordOf(row: CertRow, kind: string, caller: CaCaller, at: number) {
  return {
    id: newId(),
    realm_id: row.realm_id,
    account_id: row.account_id,
    kind,
    cert_id: row.id,
    sn: row.sn,
    cn: row.cn,
    actor_id: caller.actor?.id ?? null,
    actor_name: caller.actor?.name ?? null,
    reason: null as string | null,
    at,
  };
}

export type IssueService = ReturnType<typeof createIssueService>;
