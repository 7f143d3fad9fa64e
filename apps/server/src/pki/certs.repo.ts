/**
 * SQL for certificates and their issue records (issue 13): the one writer of pki_certs and
 * pki_records. A certificate and its record are written in one transaction by the caller (A-45).
 */
import { CompiledQuery, sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { CertStatus } from '@umbo/contracts';
import type { Database, Db } from '../platform/db.js';
import { prepare } from '../platform/prepared.js';
import { createOneStatement } from './one-statement.js';
import type { PkiCertTable, PkiRecordTable } from './pki.tables.js';

export type CertRow = Selectable<PkiCertTable>;
/** An end-entity certificate with its key's name and whether a CA above it is revoked (status caRevoked). */
export type CertWithKey = CertRow & { key_name: string | null; ca_revoked: boolean | number };
export type RecordRow = Selectable<PkiRecordTable>;

export interface CertFilter {
  status?: CertStatus;
  expiringWithinDays?: number;
  keyId?: string;
  cn?: string;
  sn?: string;
}

export interface Page {
  after?: { at: number; id: string };
  limit: number;
}

const likePrefix = (v: string) => `${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A CA above the certificate is revoked: its issuing CA, that CA's parent or the root (the
 * chain is at most account CA → realm intermediate → root). A CA counts as revoked when its
 * current certificate is: revoking a CA revokes every certificate of its key (revoke.ts), and
 * a revoked CA is never renewed (1114). The one rule behind status caRevoked (status.ts), the
 * list's status filter, the realm's expiry inventory and the expiry notices: relying parties
 * refuse the whole chain (RFC 5280 §6.3), so none of these may treat such a certificate as live.
 */
export const caRevoked = (eb: ExpressionBuilder<Database, 'pki_certs'>) =>
  eb.exists(
    eb
      .selectFrom('pki_cas as ca1')
      .innerJoin('pki_certs as cc1', 'cc1.id', 'ca1.cert_id')
      // the root is its own parent: the walk stops there
      .leftJoin('pki_cas as ca2', (j) => j.onRef('ca2.id', '=', 'ca1.parent_id').onRef('ca2.id', '<>', 'ca1.id'))
      .leftJoin('pki_certs as cc2', 'cc2.id', 'ca2.cert_id')
      .leftJoin('pki_cas as ca3', (j) => j.onRef('ca3.id', '=', 'ca2.parent_id').onRef('ca3.id', '<>', 'ca2.id'))
      .leftJoin('pki_certs as cc3', 'cc3.id', 'ca3.cert_id')
      .select('ca1.id')
      .whereRef('ca1.id', '=', 'pki_certs.ca_id')
      .where((w) => w.or([w('cc1.revoked_at', 'is not', null), w('cc2.revoked_at', 'is not', null), w('cc3.revoked_at', 'is not', null)])),
  );

/** What issuance read of each CA above a new certificate (pki_cas columns): still so when the certificate is stored. */
export type ChainFact = { id: string; slot: string; cert_id: string; default_issue_days: number; max_issue_days: number };
/** Marks where a value goes in a statement compiled once (insertCertUnderOf). */
const MARK = '\u0000pki-cert:';
const CHAIN_FACT_KEYS = ['id', 'slot', 'cert_id', 'default_issue_days', 'max_issue_days'] as const satisfies readonly (keyof ChainFact)[];

/**
 * True when every CA of `chain` still holds its slot, its current certificate, its issuance
 * periods, and that certificate is unrevoked — checked in the statement that stores a
 * certificate signed from a per-process copy of the chain (ca.store.ts), so a renewal,
 * revocation, replacement or edit on any instance is seen at the moment of storing.
 *
 * One lookup by unique key per CA row and per CA certificate. Not a join with the facts OR-ed:
 * SQLite plans that from its statistics, which say pki_certs is nearly empty until the planner
 * job runs again (planner.jobs.ts), and it then walked the whole table on every issuance
 * (0.9 ms at 3,000 certificates, growing with each one; issue 13 bench).
 */
const chainCurrent = (chain: readonly ChainFact[]) =>
  sql<boolean>`(${sql.join(
    chain.map(
      (ca) =>
        sql`exists (select 1 from pki_cas a where a.id = ${ca.id} and a.slot = ${ca.slot} and a.cert_id = ${ca.cert_id} and a.default_issue_days = ${ca.default_issue_days} and a.max_issue_days = ${ca.max_issue_days}) and exists (select 1 from pki_certs c where c.id = ${ca.cert_id} and c.revoked_at is null)`,
    ),
    sql` and `,
  )})`;

/**
 * The insert of insertCertUnder failed because its chain changed: `type` is NOT NULL, and the
 * guarded insert gives it no value then (PostgreSQL 23502; SQLite's NOT NULL constraint).
 */
/** The realm's live certificates (not revoked, not superseded, no revoked CA above) ending in (now, until]: `expiring` and its count. */
const liveEndingBy = (eb: ExpressionBuilder<Database, 'pki_certs'>, realmId: string, now: number, until: number) =>
  eb.and([
    eb('pki_certs.realm_id', '=', realmId),
    eb('pki_certs.revoked_at', 'is', null),
    eb('pki_certs.superseded', '=', 0),
    eb.not(caRevoked(eb)),
    eb('pki_certs.not_after', '>', now),
    eb('pki_certs.not_after', '<=', until),
  ]);

export function chainChanged(err: unknown): boolean {
  const e = err as { code?: string; table?: string; column?: string; message?: string } | null;
  if (!e) return false;
  if (e.code === '23502') return e.table === 'pki_certs' && e.column === 'type';
  return e.code === 'SQLITE_CONSTRAINT_NOTNULL' && (e.message ?? '').includes('pki_certs.type');
}

export function createCertRepo(db: Db) {
  /** The account's end-entity certificates (device/service), with their key's name and ca_revoked. */
  function ownCerts(trx: Db, accountId: string) {
    return trx
      .selectFrom('pki_certs')
      .leftJoin('pki_keys', 'pki_keys.id', 'pki_certs.key_id')
      .selectAll('pki_certs')
      .select('pki_keys.name as key_name')
      .select((eb) => caRevoked(eb).as('ca_revoked'))
      .where('pki_certs.account_id', '=', accountId)
      .where('pki_certs.type', 'in', ['device', 'service']);
  }

  // An issuance's inserts are built once (platform/prepared.ts), not per certificate: Kysely
  // building and compiling a 23-column insert was a visible share of an issuance (issue 13 bench).
  const certColumns = (p: (name: keyof CertRow & string) => unknown): CertRow => {
    // every column named: a column added to the table without a value here fails to compile
    const columns: Record<keyof CertRow, unknown> = {
      id: p('id'),
      realm_id: p('realm_id'),
      account_id: p('account_id'),
      ca_id: p('ca_id'),
      subject_ca_id: p('subject_ca_id'),
      type: p('type'),
      cn_type: p('cn_type'),
      cn: p('cn'),
      san: p('san'),
      sn: p('sn'),
      key_id: p('key_id'),
      description: p('description'),
      issuer: p('issuer'),
      subject: p('subject'),
      fingerprint: p('fingerprint'),
      ours: p('ours'),
      superseded: p('superseded'),
      cert_pem: p('cert_pem'),
      not_before: p('not_before'),
      not_after: p('not_after'),
      revoked_at: p('revoked_at'),
      revoke_reason: p('revoke_reason'),
      created_at: p('created_at'),
    };
    return columns as CertRow;
  };
  /**
   * insertCertUnder's statement for a chain of `n` CAs (1 to 3), compiled once: its SQL and how
   * each parameter is read from the row and the chain. Not prepare()'s named values: an object
   * of 38 names made per certificate cost ~40 µs.
   */
  const certUnder = new Map<number, { sql: string; values: (row: CertRow, chain: readonly ChainFact[]) => unknown[] }>();
  function insertCertUnderOf(n: number) {
    let stmt = certUnder.get(n);
    if (!stmt) {
      const chain = Array.from({ length: n }, (_, i) => Object.fromEntries(CHAIN_FACT_KEYS.map((k) => [k, `${MARK}${i}:${k}`])) as unknown as ChainFact);
      const row = certColumns((name) => `${MARK}row:${name}`);
      const compiled = db
        .insertInto('pki_certs')
        .values({ ...row, type: sql<string>`(select cast(${row.type} as varchar(16)) where ${chainCurrent(chain)})` })
        .compile();
      const read = compiled.parameters.map((mark) => {
        if (typeof mark !== 'string' || !mark.startsWith(MARK)) return () => mark;
        const [where, name] = mark.slice(MARK.length).split(':') as [string, string];
        if (where === 'row') return (r: CertRow) => r[name as keyof CertRow];
        return (_: CertRow, c: readonly ChainFact[]) => c[Number(where)]![name as keyof ChainFact];
      });
      stmt = { sql: compiled.sql, values: (r, c) => read.map((f) => f(r, c) ?? null) };
      certUnder.set(n, stmt);
    }
    return stmt;
  }
  const insertRecordStatement = prepare<RecordRow>(db, (p) =>
    db.insertInto('pki_records').values({
      id: p('id'),
      realm_id: p('realm_id'),
      account_id: p('account_id'),
      kind: p('kind'),
      cert_id: p('cert_id'),
      sn: p('sn'),
      cn: p('cn'),
      actor_id: p('actor_id'),
      actor_name: p('actor_name'),
      reason: p('reason'),
      at: p('at'),
    }),
  );

  return {
    /** The inserts `work` makes (certificate, record, audit event) all-or-nothing: one statement on PostgreSQL (one-statement.ts). */
    insertTogether: createOneStatement(db),
    async insertCert(row: CertRow, trx: Db = db): Promise<void> {
      await trx.insertInto('pki_certs').values(row).execute();
    },
    /**
     * insertCert, only while `chain` is current (chainCurrent): otherwise the statement fails
     * (chainChanged(err)) and stores nothing. A plain insert, one round trip with the rest of an
     * issuance's inserts (insertTogether): the check costs no statement of its own. The value
     * of `type` carries the check because an INSERT … VALUES has no WHERE.
     */
    async insertCertUnder(row: CertRow, chain: readonly ChainFact[], trx: Db = db): Promise<void> {
      const { sql: text, values } = insertCertUnderOf(chain.length);
      await trx.executeQuery(CompiledQuery.raw(text, values(row, chain)));
    },
    findById(id: string, trx: Db = db): Promise<CertRow | undefined> {
      return trx.selectFrom('pki_certs').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findByIds(ids: string[], trx: Db = db): Promise<CertRow[]> {
      if (!ids.length) return Promise.resolve([]);
      return trx.selectFrom('pki_certs').selectAll().where('id', 'in', ids).execute();
    },
    /** An end-entity certificate of the account (device/service), with its key's name. */
    findOwn(accountId: string, id: string, trx: Db = db): Promise<CertWithKey | undefined> {
      return ownCerts(trx, accountId).where('pki_certs.id', '=', id).executeTakeFirst();
    },
    findBySerial(caId: string, sn: string, trx: Db = db): Promise<CertRow | undefined> {
      return trx.selectFrom('pki_certs').selectAll().where('ca_id', '=', caId).where('sn', '=', sn).executeTakeFirst();
    },
    /** Filtered by status in statusOfRow's order (status.ts): each certificate matches exactly one status. */
    listOwn(accountId: string, f: CertFilter, now: number, page: Page, trx: Db = db): Promise<CertWithKey[]> {
      let q = ownCerts(trx, accountId);
      if (f.keyId) q = q.where('pki_certs.key_id', '=', f.keyId);
      if (f.cn) q = q.where('pki_certs.cn', 'like', likePrefix(f.cn));
      if (f.sn) q = q.where('pki_certs.sn', '=', f.sn);
      if (f.status === 'revoked') q = q.where('pki_certs.revoked_at', 'is not', null);
      if (f.status && f.status !== 'revoked') q = q.where('pki_certs.revoked_at', 'is', null);
      if (f.status === 'caRevoked') q = q.where((eb) => caRevoked(eb));
      if (f.status && f.status !== 'revoked' && f.status !== 'caRevoked') q = q.where((eb) => eb.not(caRevoked(eb)));
      if (f.status === 'expired') q = q.where('pki_certs.not_after', '<=', now);
      if (f.status === 'valid') q = q.where('pki_certs.not_after', '>', now).where('pki_certs.not_before', '<=', now);
      if (f.status === 'pending') q = q.where('pki_certs.not_before', '>', now).where('pki_certs.not_after', '>', now);
      if (f.expiringWithinDays !== undefined) {
        q = q.where('pki_certs.not_after', '>', now).where('pki_certs.not_after', '<=', now + f.expiringWithinDays * 86_400_000);
      }
      if (page.after) {
        const { at, id } = page.after;
        // the plain bound is what PostgreSQL starts the index scan from (an OR alone is a filter)
        q = q
          .where('pki_certs.created_at', '<=', at)
          .where((eb) => eb.or([eb('pki_certs.created_at', '<', at), eb.and([eb('pki_certs.created_at', '=', at), eb('pki_certs.id', '<', id)])]));
      }
      return q.orderBy('pki_certs.created_at', 'desc').orderBy('pki_certs.id', 'desc').limit(page.limit).execute();
    },
    /**
     * Revokes once: only the request that finds the certificate not yet revoked changes it
     * (200 parallel revocations → one). On PostgreSQL the others wait for the row and then see it revoked.
     */
    async revokeOnce(id: string, at: number, reason: string, trx: Db = db): Promise<boolean> {
      const r = await trx
        .updateTable('pki_certs')
        .set({ revoked_at: at, revoke_reason: reason })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Every revoked certificate a CA issued (its CRL's entries), oldest revocation first. */
    revokedBy(caId: string, trx: Db = db): Promise<Pick<CertRow, 'sn' | 'revoked_at' | 'revoke_reason'>[]> {
      return trx
        .selectFrom('pki_certs')
        .select(['sn', 'revoked_at', 'revoke_reason'])
        .where('ca_id', '=', caId)
        .where('revoked_at', 'is not', null)
        .orderBy('revoked_at')
        .orderBy('sn')
        .execute();
    },
    /** Valid (not revoked, not expired) certificates per key: delete is refused while > 0. */
    async validCountByKey(keyIds: string[], now: number, trx: Db = db): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      if (!keyIds.length) return out;
      const rows = await trx
        .selectFrom('pki_certs')
        .select(['key_id', sql<number>`count(*)`.as('n')])
        .where('key_id', 'in', keyIds)
        .where('revoked_at', 'is', null)
        .where('not_after', '>', now)
        .groupBy('key_id')
        .execute();
      for (const r of rows) if (r.key_id) out.set(r.key_id, Number(r.n));
      return out;
    },
    /** The certificates of a CA (its current one and those renewals replaced) not yet revoked. */
    liveCertsOfCa(caId: string, trx: Db = db): Promise<CertRow[]> {
      return trx.selectFrom('pki_certs').selectAll().where('subject_ca_id', '=', caId).where('revoked_at', 'is', null).execute();
    },
    /** Whether this CA certificate was made by a renewal (it has a renewCa record). */
    async isRenewal(certId: string): Promise<boolean> {
      const row = await db.selectFrom('pki_records').select('id').where('cert_id', '=', certId).where('kind', '=', 'renewCa').executeTakeFirst();
      return row !== undefined;
    },

    /**
     * A CA renewal's first write: marks the CA's current certificate superseded only while it is
     * current and not revoked. Of parallel renewals one wins, the others (and a renewal that a
     * revocation overtook) get false and write nothing; on PostgreSQL the row lock orders them
     * against each other and against revokeOnce.
     */
    async supersedeOnce(id: string, trx: Db = db): Promise<boolean> {
      const r = await trx
        .updateTable('pki_certs')
        .set({ superseded: 1 })
        .where('id', '=', id)
        .where('superseded', '=', 0)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /**
     * Locks a certificate that is not revoked (a no-op update) for the rest of the transaction;
     * false when it is revoked. A reissue checks this in its transaction, so a revocation that
     * committed first is seen (PostgreSQL waits for one still running).
     */
    async lockUnrevoked(id: string, trx: Db = db): Promise<boolean> {
      const r = await trx
        .updateTable('pki_certs')
        .set((eb) => ({ superseded: eb.ref('superseded') }))
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** The certificate already attached to a key (set cert), by the SHA-256 of its DER. */
    findOnKey(keyId: string, fingerprint: string, trx: Db = db): Promise<CertRow | undefined> {
      return trx.selectFrom('pki_certs').selectAll().where('key_id', '=', keyId).where('fingerprint', '=', fingerprint).executeTakeFirst();
    },
    /**
     * The realm's live certificates (CA certificates included) ending before `until`, soonest
     * first; live: not revoked, not superseded, no revoked CA above it (caRevoked).
     */
    expiring(realmId: string, now: number, until: number, limit: number, trx: Db = db) {
      return trx
        .selectFrom('pki_certs')
        .leftJoin('accounts', 'accounts.id', 'pki_certs.account_id')
        .select([
          'pki_certs.id',
          'pki_certs.type',
          'pki_certs.cn',
          'pki_certs.sn',
          'pki_certs.not_after',
          'pki_certs.not_before',
          'accounts.username as account_name',
        ])
        .where((eb) => liveEndingBy(eb, realmId, now, until))
        .orderBy('pki_certs.not_after')
        .limit(limit)
        .execute();
    },
    /** How many of the certificates `expiring` lists end before `until`. */
    async countExpiring(realmId: string, now: number, until: number, trx: Db = db): Promise<number> {
      const r = await trx
        .selectFrom('pki_certs')
        .select(sql<number>`count(*)`.as('n'))
        .where((eb) => liveEndingBy(eb, realmId, now, until))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    // --- issue records
    async insertRecord(row: RecordRow, trx: Db = db): Promise<void> {
      await insertRecordStatement.run(row, trx);
    },
    listRecords(accountId: string, o: { certId?: string } & Page, trx: Db = db): Promise<RecordRow[]> {
      let q = trx.selectFrom('pki_records').selectAll().where('account_id', '=', accountId);
      if (o.certId) q = q.where('cert_id', '=', o.certId);
      if (o.after) {
        const { at, id } = o.after;
        q = q.where('at', '<=', at).where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
      }
      return q.orderBy('at', 'desc').orderBy('id', 'desc').limit(o.limit).execute();
    },
    countRecords(certId: string, kind: string, trx: Db = db): Promise<number> {
      return trx
        .selectFrom('pki_records')
        .select(sql<number>`count(*)`.as('n'))
        .where('cert_id', '=', certId)
        .where('kind', '=', kind)
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    },
  };
}

export type CertRepo = ReturnType<typeof createCertRepo>;
