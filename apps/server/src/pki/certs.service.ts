/**
 * Reading certificates and issue records (issue 13, account/cert/list, certRecord, the expiry
 * inventory): views in the contract's shape. Writing is issue.ts and revoke.ts.
 */
import { EXPIRY_WINDOWS, type CertView, type RevokeReason, type SanEntry } from '@umbo/contracts';
import type { Clock } from '../platform/clock.js';
import { assertThat } from '../platform/errors.js';
import type { CaAccount } from './ca.service.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { CertFilter, CertRepo, CertRow, RecordRow } from './certs.repo.js';
import { DAY_MS } from './defaults.js';
import { statusOfRow, type StatusFacts } from './status.js';

export function certViewOf(r: CertRow & Pick<StatusFacts, 'ca_revoked'> & { key_name?: string | null }, now: number): CertView {
  return {
    id: r.id,
    type: r.type as CertView['type'],
    cnType: (r.cn_type as CertView['cnType']) ?? null,
    cn: r.cn,
    san: JSON.parse(r.san) as SanEntry[],
    status: statusOfRow(r, now),
    revokeStatus: { revoked: r.revoked_at !== null, reason: (r.revoke_reason as RevokeReason | null) ?? null, revokedAtTs: r.revoked_at },
    notBeforeTs: r.not_before,
    expireAtTs: r.not_after,
    sn: r.sn,
    keyId: r.key_id,
    keyName: r.key_name ?? null,
    desc: r.description,
    issuer: r.issuer,
    subject: r.subject,
    fingerprint: r.fingerprint,
    ours: r.ours === 1,
    certPem: r.cert_pem,
    createdAt: r.created_at,
  };
}

const recordView = (r: RecordRow) => ({
  id: r.id,
  kind: r.kind as 'issue' | 'reissue' | 'revoke' | 'import' | 'renewCa',
  certId: r.cert_id,
  sn: r.sn,
  cn: r.cn,
  actorId: r.actor_id,
  actorName: r.actor_name,
  reason: (r.reason as RevokeReason | null) ?? null,
  at: r.at,
});

export function createCertsService(deps: { certs: CertRepo; clock: Clock }) {
  const { certs, clock } = deps;
  return {
    view: (r: CertRow & Pick<StatusFacts, 'ca_revoked'> & { key_name?: string | null }) => certViewOf(r, clock.now()),

    async list(a: CaAccount, q: CertFilter & { cursor?: string | undefined; limit: number }) {
      const after = decodeCursor(q.cursor);
      const { cursor: _c, limit, ...filter } = q;
      const rows = await certs.listOwn(a.id, filter, clock.now(), { ...(after ? { after } : {}), limit: limit + 1 });
      const page = rows.filter((r) => r.realm_id === a.realmId).slice(0, limit);
      const last = page[page.length - 1];
      return { items: page.map((r) => certViewOf(r, clock.now())), next: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null };
    },

    async get(a: CaAccount, certId: string): Promise<CertView> {
      const row = await certs.findOwn(a.id, certId);
      assertThat(row && row.realm_id === a.realmId, 'NOT_FOUND');
      return certViewOf(row, clock.now());
    },

    async records(a: CaAccount, q: { certId?: string | undefined; cursor?: string | undefined; limit: number }) {
      const after = decodeCursor(q.cursor);
      const rows = await certs.listRecords(a.id, { ...(q.certId ? { certId: q.certId } : {}), ...(after ? { after } : {}), limit: q.limit + 1 });
      const page = rows.filter((r) => r.realm_id === a.realmId).slice(0, q.limit);
      const last = page[page.length - 1];
      return { items: page.map(recordView), next: rows.length > q.limit && last ? encodeCursor(last.at, last.id) : null };
    },

    /** The realm's expiry inventory: counts for 7/30/90 days and the certificates ending within `withinDays`. */
    async expiring(realmId: string, withinDays: number) {
      const now = clock.now();
      const [d7, d30, d90] = await Promise.all(EXPIRY_WINDOWS.map((d) => certs.countExpiring(realmId, now, now + d * DAY_MS)));
      const rows = await certs.expiring(realmId, now, now + withinDays * DAY_MS, 500);
      return {
        counts: { d7: d7!, d30: d30!, d90: d90! },
        items: rows.map((r) => ({
          id: r.id,
          type: r.type as CertView['type'],
          cn: r.cn,
          sn: r.sn,
          expireAtTs: r.not_after,
          status: statusOfRow({ revoked_at: null, not_before: r.not_before, not_after: r.not_after }, now),
          accountName: r.account_name ?? null,
        })),
      };
    },
  };
}

export type CertsService = ReturnType<typeof createCertsService>;
