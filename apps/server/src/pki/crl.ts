/**
 * CRLs (issue 13, CA-04): one per CA, signed by that CA, with nextUpdate = now + 7 days and a
 * cRLNumber taken from a counter in the CA's row — strictly increasing across regenerations,
 * restarts and instances. Regenerated inside every revocation's transaction (so the CRL and the
 * revocation commit together) and by the job (pki.jobs.ts) before nextUpdate comes near.
 */
import type { RevokeReason } from '@umbo/contracts';
import type { Clock } from '../platform/clock.js';
import type { Db, Transact } from '../platform/db.js';
import type { CaStore } from './ca.store.js';
import type { CertRepo } from './certs.repo.js';
import { CRL_LIFETIME_MS, CRL_REFRESH_BEFORE_MS } from './defaults.js';
import type { CrlRow, PkiRepo } from './pki.repo.js';
import { encodeCrl } from './crl-der.js';
import { pemOf } from './profile.js';

export function createCrlService(deps: { store: CaStore; pki: PkiRepo; certs: CertRepo; clock: Clock; transact: Transact }) {
  const { store, pki, certs, clock, transact } = deps;

  /** A new CRL for `caId` in the caller's transaction: the next number, every revoked certificate it issued. */
  async function regenerateIn(caId: string, trx: Db): Promise<CrlRow> {
    const ca = await store.load(caId, trx);
    if (!ca) throw new Error(`no CA ${caId}`);
    const number = await pki.nextCrlNumber(caId, trx);
    const revoked = await certs.revokedBy(caId, trx);
    const now = clock.now();
    const der = encodeCrl({
      issuerSubjectDer: ca.subjectDer,
      keyIdHex: ca.keyId,
      crlNumber: number,
      thisUpdate: now,
      nextUpdate: now + CRL_LIFETIME_MS,
      entries: revoked.map((r) => ({ sn: r.sn, revokedAt: r.revoked_at!, reason: (r.revoke_reason as RevokeReason | null) ?? null })),
      key: ca.signer.keyObject,
    });
    const row: CrlRow = {
      ca_id: caId,
      crl_number: number,
      this_update: now,
      next_update: now + CRL_LIFETIME_MS,
      der: der.toString('base64'),
    };
    await pki.saveCrl(row, trx);
    return row;
  }

  return {
    regenerateIn,
    regenerate: (caId: string) => transact((trx) => regenerateIn(caId, trx)),

    /** The CA's CRL as published: the stored one while it has more than a day left, else a fresh one. */
    async current(caId: string): Promise<{ der: Buffer; pem: string; row: CrlRow }> {
      let row = await pki.findCrl(caId);
      if (!row || row.next_update - clock.now() < CRL_REFRESH_BEFORE_MS) row = await transact((trx) => regenerateIn(caId, trx));
      const der = Buffer.from(row.der, 'base64');
      return { der, pem: pemOf('X509 CRL', der), row };
    },

    /** The job: every CA whose CRL is missing or ends within a day gets a new one. */
    async refreshDue(): Promise<number> {
      const due = await pki.casWithCrlDueBefore(clock.now() + CRL_REFRESH_BEFORE_MS);
      for (const caId of due) await transact((trx) => regenerateIn(caId, trx));
      return due.length;
    },
  };
}

export type CrlService = ReturnType<typeof createCrlService>;
