/**
 * SQL for certificate expiry notices (issue 13): the one writer of pki_expiry_notices. Reads
 * the certificates and their owners it needs; never writes pki_certs.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../platform/db.js';
import { caRevoked } from './certs.repo.js';

export interface PkiExpiryNoticeTable {
  id: string;
  cert_id: string;
  /** the threshold this notice is for: sent when the certificate had at most this many days left */
  threshold_days: number;
  realm_id: string | null;
  account_id: string | null;
  /**
   * pending: queued · sending: taken by one process · sent · skipped: a smaller threshold was
   * already due when the certificate was first seen · noEmail: the owner has no address ·
   * failed: delivery failed too often
   */
  state: string;
  attempts: number;
  created_at: number;
  updated_at: number;
}

declare module '../platform/db.js' {
  interface Database {
    pki_expiry_notices: PkiExpiryNoticeTable;
  }
}

export type ExpiryNoticeRow = Selectable<PkiExpiryNoticeTable>;

/** The certificate kinds whose owner is told: an account's leaves and its own CA. */
export const NOTICE_CERT_TYPES = ['device', 'service', 'accountCa'];

/** A live certificate near its end, with what the notice needs of its owner. */
export interface ExpiringCert {
  id: string;
  realm_id: string | null;
  account_id: string | null;
  type: string;
  cn: string;
  sn: string;
  not_after: number;
}

export interface NoticeToSend {
  id: string;
  threshold_days: number;
  attempts: number;
  cert_id: string;
  realm_id: string | null;
  account_id: string | null;
}

export function createExpiryNoticeRepo(db: Db) {
  /**
   * Live (not revoked, not superseded, no revoked CA above it, not yet expired) account
   * certificates ending by `until`: no owner is told that a certificate no relying party
   * accepts any more is ending.
   */
  const live = (trx: Db, now: number, until: number) =>
    trx
      .selectFrom('pki_certs')
      .where('pki_certs.type', 'in', NOTICE_CERT_TYPES)
      .where('pki_certs.account_id', 'is not', null)
      .where('pki_certs.revoked_at', 'is', null)
      .where('pki_certs.superseded', '=', 0)
      .where((eb) => eb.not(caRevoked(eb)))
      .where('pki_certs.not_after', '>', now)
      .where('pki_certs.not_after', '<=', until);

  return {
    /** Realms holding such certificates (each realm has its own thresholds). */
    async realmsWithExpiring(now: number, until: number, trx: Db = db): Promise<string[]> {
      const rows = await live(trx, now, until).select('pki_certs.realm_id').distinct().execute();
      return rows.map((r) => r.realm_id).filter((r): r is string => r !== null);
    },

    /**
     * The realm's certificates ending in (from, until] with no notice yet for `threshold`: the
     * band of one threshold, so every row answered still needs work and paging ends.
     */
    expiringWithout(realmId: string, from: number, until: number, threshold: number, limit: number, trx: Db = db): Promise<ExpiringCert[]> {
      return live(trx, from, until)
        .where('pki_certs.realm_id', '=', realmId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(selectFrom('pki_expiry_notices as n').select('n.id').whereRef('n.cert_id', '=', 'pki_certs.id').where('n.threshold_days', '=', threshold)),
          ),
        )
        .select(['pki_certs.id', 'pki_certs.realm_id', 'pki_certs.account_id', 'pki_certs.type', 'pki_certs.cn', 'pki_certs.sn', 'pki_certs.not_after'])
        .orderBy('pki_certs.not_after')
        .limit(limit)
        .execute();
    },

    /** Inserts the row unless (certificate, threshold) has one: true when this call made it. */
    async insertOnce(row: ExpiryNoticeRow, trx: Db = db): Promise<boolean> {
      const r = await trx
        .insertInto('pki_expiry_notices')
        .values(row)
        .onConflict((oc) => oc.columns(['cert_id', 'threshold_days']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    pending(limit: number, trx: Db = db): Promise<NoticeToSend[]> {
      return trx
        .selectFrom('pki_expiry_notices')
        .select(['id', 'threshold_days', 'attempts', 'cert_id', 'realm_id', 'account_id'])
        .where('state', '=', 'pending')
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /** Moves a notice from one state to the next only if it is still in `from`: one process wins. */
    async move(id: string, from: string, to: string, now: number, o: { countAttempt?: boolean } = {}, trx: Db = db): Promise<boolean> {
      const r = await trx
        .updateTable('pki_expiry_notices')
        .set((eb) => ({ state: to, updated_at: now, ...(o.countAttempt ? { attempts: eb('attempts', '+', 1) } : {}) }))
        .where('id', '=', id)
        .where('state', '=', from)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** The certificate a queued notice is about, with whether a CA above it was revoked since (ca_revoked). */
    findCert(id: string, trx: Db = db) {
      return trx
        .selectFrom('pki_certs')
        .select(['id', 'type', 'cn', 'sn', 'not_before', 'not_after', 'revoked_at', 'superseded'])
        .select((eb) => caRevoked(eb).as('ca_revoked'))
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** What a notice says about its owner: never anything secret. */
    findOwner(realmId: string, accountId: string, trx: Db = db) {
      return trx
        .selectFrom('accounts')
        .select(['id', 'realm_id', 'username', 'email'])
        .where('realm_id', '=', realmId)
        .where('id', '=', accountId)
        .executeTakeFirst();
    },

    list(certId: string, trx: Db = db): Promise<ExpiryNoticeRow[]> {
      return trx.selectFrom('pki_expiry_notices').selectAll().where('cert_id', '=', certId).orderBy('threshold_days', 'desc').execute();
    },
  };
}

export type ExpiryNoticeRepo = ReturnType<typeof createExpiryNoticeRepo>;
