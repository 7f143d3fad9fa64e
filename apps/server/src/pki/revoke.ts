/**
 * Revocation (issue 13, A-43): with an RFC 5280 reason, once — the conditional update lets one
 * of any number of parallel requests revoke (the others: 1109) — with its issue record, audit
 * event and the issuing CA's new CRL in the same transaction. Another account's or realm's
 * certificate is 1004.
 */
import type { RevokeReason } from '@umbo/contracts';
import type { AuditService } from '../audit/audit.service.js';
import type { Clock } from '../platform/clock.js';
import type { Transact } from '../platform/db.js';
import { assertThat } from '../platform/errors.js';
import type { CaAccount, CaCaller, CaService } from './ca.service.js';
import type { CertRepo, CertRow } from './certs.repo.js';
import type { CrlService } from './crl.js';
import { recordOf } from './issue.js';

export function createRevokeService(deps: { ca: CaService; certs: CertRepo; crl: CrlService; audit: AuditService; clock: Clock; transact: Transact }) {
  const { certs, crl, audit, clock, transact } = deps;

  async function revokeRow(row: CertRow, realmId: string, reason: RevokeReason, caller: CaCaller): Promise<CertRow> {
    const now = clock.now();
    await transact(async (trx) => {
      assertThat(await certs.revokeOnce(row.id, now, reason, trx), 'CERT_REVOKED');
      await certs.insertRecord({ ...recordOf(row, 'revoke', caller, now), reason }, trx);
      await audit.record(
        {
          realmId,
          actor: caller.actor,
          action: 'pki.cert.revoke',
          target: { type: 'cert', id: row.id, name: row.cn },
          result: 'ok',
          request: caller.request,
          detail: { sn: row.sn, reason, type: row.type },
        },
        trx,
      );
      // imported certificates are in no CRL of ours
      if (row.ca_id) await crl.regenerateIn(row.ca_id, trx);
    });
    return (await certs.findById(row.id))!;
  }

  return {
    /** The caller's own certificate. */
    async revokeOwn(account: CaAccount, certId: string, reason: RevokeReason, caller: CaCaller): Promise<CertRow> {
      const row = await certs.findOwn(account.id, certId);
      assertThat(row && row.realm_id === account.realmId, 'NOT_FOUND');
      assertThat(row.revoked_at === null, 'CERT_REVOKED');
      return revokeRow(row, account.realmId, reason, caller);
    },

    /**
     * An account CA of the realm (domainCert): its current certificate and those its renewals
     * replaced (same key), all in the realm intermediate's CRL, in one transaction.
     */
    async revokeAccountCa(realmId: string, caId: string, reason: RevokeReason, caller: CaCaller): Promise<void> {
      const ca = await deps.ca.accountCaIn(realmId, caId);
      assertThat(ca.certRow.revoked_at === null, 'CERT_REVOKED');
      const now = clock.now();
      await transact(async (trx) => {
        assertThat(await certs.revokeOnce(ca.certRow.id, now, reason, trx), 'CERT_REVOKED');
        const older = await certs.liveCertsOfCa(caId, trx);
        for (const row of older) await certs.revokeOnce(row.id, now, reason, trx);
        for (const row of [ca.certRow, ...older]) await certs.insertRecord({ ...recordOf(row, 'revoke', caller, now), reason }, trx);
        await audit.record(
          {
            realmId,
            actor: caller.actor,
            action: 'pki.ca.revoke',
            target: { type: 'ca', id: caId, name: ca.certRow.cn },
            result: 'ok',
            request: caller.request,
            detail: { sn: ca.certRow.sn, reason, certificates: older.length + 1 },
          },
          trx,
        );
        await crl.regenerateIn(ca.row.parent_id!, trx);
      });
    },
  };
}

export type RevokeService = ReturnType<typeof createRevokeService>;
