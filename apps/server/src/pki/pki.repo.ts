/**
 * SQL for CAs, managed keys and CRLs (issue 13): the one writer of pki_cas, pki_keys and
 * pki_crls. Private keys arrive sealed; this file never sees a PEM private key in clear.
 */
import { sql, type Selectable } from 'kysely';
import { isUniqueViolation, type Db } from '../platform/db.js';
import type { PkiCaTable, PkiCertTable, PkiCrlTable, PkiKeyTable } from './pki.tables.js';

export type CaRow = Selectable<PkiCaTable>;
export type KeyRow = Selectable<PkiKeyTable>;
export type CrlRow = Selectable<PkiCrlTable>;

/** pki_certs' columns, read beside pki_cas' under a prefix (the two tables share column names). */
const CERT_COLUMNS: readonly (keyof PkiCertTable)[] = [
  'id',
  'realm_id',
  'account_id',
  'ca_id',
  'subject_ca_id',
  'type',
  'cn_type',
  'cn',
  'san',
  'sn',
  'key_id',
  'description',
  'issuer',
  'subject',
  'fingerprint',
  'ours',
  'superseded',
  'cert_pem',
  'not_before',
  'not_after',
  'revoked_at',
  'revoke_reason',
  'created_at',
];
const certSelect = sql.raw(CERT_COLUMNS.map((c) => `c.${c} as cert__${c}`).join(', '));

export function createPkiRepo(db: Db) {
  return {
    // --- CAs
    findCaById(id: string, trx: Db = db): Promise<CaRow | undefined> {
      return trx.selectFrom('pki_cas').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findCaBySlot(slot: string, trx: Db = db): Promise<CaRow | undefined> {
      return trx.selectFrom('pki_cas').selectAll().where('slot', '=', slot).executeTakeFirst();
    },
    /**
     * The CA of `slot` and its parents up to the root (itself first), each with its current
     * certificate row, in ONE statement: issuance reads it on every request, and on PostgreSQL
     * each statement is a round trip. At most 5 CAs, as chainOf walks.
     */
    async findChainBySlot(slot: string, trx: Db = db): Promise<{ ca: CaRow; cert: Selectable<PkiCertTable> }[]> {
      const r = await sql<Record<string, unknown>>`
        with recursive chain(id, parent_id, depth) as (
          select id, parent_id, 0 from pki_cas where slot = ${slot}
          union all
          select p.id, p.parent_id, chain.depth + 1 from pki_cas p join chain on p.id = chain.parent_id
          where chain.parent_id <> chain.id and chain.depth < 4
        )
        select chain.depth as chain__depth, a.*, ${certSelect}
        from chain join pki_cas a on a.id = chain.id join pki_certs c on c.id = a.cert_id
        order by chain.depth`.execute(trx);
      return r.rows.map((row) => {
        const ca: Record<string, unknown> = {};
        const cert: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(row)) {
          if (k.startsWith('cert__')) cert[k.slice(6)] = v;
          else if (k !== 'chain__depth') ca[k] = v;
        }
        return { ca: ca as CaRow, cert: cert as Selectable<PkiCertTable> };
      });
    },
    /** False when the slot is taken: another request (or instance) created that CA first. */
    async insertCa(row: CaRow, trx: Db = db): Promise<boolean> {
      try {
        await trx.insertInto('pki_cas').values(row).execute();
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },
    /**
     * Frees `slot` for a replacement: the CA keeps its row (its CRL and OCSP answers stay
     * published) under `retiredSlot`. False when it no longer holds the slot — a parallel
     * replacement won — so the loser creates nothing.
     */
    async retireCaSlot(id: string, slot: string, retiredSlot: string, trx: Db = db): Promise<boolean> {
      const r = await trx.updateTable('pki_cas').set({ slot: retiredSlot }).where('id', '=', id).where('slot', '=', slot).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /** How many account CAs the account has had (the replaced ones included): a replacement's generation. */
    async countAccountCas(accountId: string, trx: Db = db): Promise<number> {
      const r = await trx
        .selectFrom('pki_cas')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .where('kind', '=', 'account')
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** The account an account CA belongs to, if it still exists (its user name names the replacement). */
    findCaAccount(accountId: string, trx: Db = db): Promise<{ id: string; realm_id: string; username: string } | undefined> {
      return trx.selectFrom('accounts').select(['id', 'realm_id', 'username']).where('id', '=', accountId).executeTakeFirst();
    },
    async updateCa(id: string, patch: Partial<Pick<CaRow, 'cert_id' | 'description' | 'default_issue_days' | 'max_issue_days' | 'updated_at'>>, trx: Db = db) {
      await trx.updateTable('pki_cas').set(patch).where('id', '=', id).execute();
    },
    /** Account CAs of a realm, with the owner's user name; `q`: prefix of the user name. */
    listAccountCas(realmId: string, o: { q?: string; after?: { at: number; id: string }; limit: number }, trx: Db = db) {
      let q = trx
        .selectFrom('pki_cas')
        .leftJoin('accounts', 'accounts.id', 'pki_cas.account_id')
        .selectAll('pki_cas')
        .select('accounts.username as account_name')
        .where('pki_cas.realm_id', '=', realmId)
        .where('pki_cas.kind', '=', 'account');
      if (o.q) q = q.where('accounts.username', 'like', `${o.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      if (o.after) {
        const { at, id } = o.after;
        // the plain bound is what PostgreSQL starts the index scan from (an OR alone is a filter)
        q = q
          .where('pki_cas.created_at', '<=', at)
          .where((eb) => eb.or([eb('pki_cas.created_at', '<', at), eb.and([eb('pki_cas.created_at', '=', at), eb('pki_cas.id', '<', id)])]));
      }
      return q.orderBy('pki_cas.created_at', 'desc').orderBy('pki_cas.id', 'desc').limit(o.limit).execute();
    },
    listAllCaIds(trx: Db = db): Promise<{ id: string }[]> {
      return trx.selectFrom('pki_cas').select('id').execute();
    },
    /** Hands out the CA's next cRLNumber (CA-04); on PostgreSQL the row stays locked until the transaction ends. */
    async nextCrlNumber(caId: string, trx: Db = db): Promise<number> {
      const r = await trx
        .updateTable('pki_cas')
        .set({ crl_counter: sql<number>`crl_counter + 1` })
        .where('id', '=', caId)
        .returning('crl_counter')
        .executeTakeFirstOrThrow();
      return Number(r.crl_counter);
    },

    // --- CRLs
    findCrl(caId: string, trx: Db = db): Promise<CrlRow | undefined> {
      return trx.selectFrom('pki_crls').selectAll().where('ca_id', '=', caId).executeTakeFirst();
    },
    /** Keeps the CRL with the highest number: a slower, older regeneration never overwrites a newer one. */
    async saveCrl(row: CrlRow, trx: Db = db): Promise<void> {
      await trx
        .insertInto('pki_crls')
        .values(row)
        .onConflict((oc) =>
          oc
            .column('ca_id')
            .doUpdateSet({ crl_number: row.crl_number, this_update: row.this_update, next_update: row.next_update, der: row.der })
            .where('pki_crls.crl_number', '<', row.crl_number),
        )
        .execute();
    },
    /** CAs whose CRL is missing or ends before `before`. */
    async casWithCrlDueBefore(before: number, trx: Db = db): Promise<string[]> {
      const rows = await trx
        .selectFrom('pki_cas')
        .leftJoin('pki_crls', 'pki_crls.ca_id', 'pki_cas.id')
        .select('pki_cas.id')
        .where((eb) => eb.or([eb('pki_crls.ca_id', 'is', null), eb('pki_crls.next_update', '<', before)]))
        .execute();
      return rows.map((r) => r.id);
    },

    // --- keys
    /** False when the account already has a key by that name (KEY_NAME_EXISTS). */
    async insertKey(row: KeyRow, trx: Db = db): Promise<boolean> {
      try {
        await trx.insertInto('pki_keys').values(row).execute();
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },
    findKey(accountId: string, keyId: string, trx: Db = db): Promise<KeyRow | undefined> {
      return trx.selectFrom('pki_keys').selectAll().where('account_id', '=', accountId).where('id', '=', keyId).executeTakeFirst();
    },
    listKeys(accountId: string, trx: Db = db): Promise<KeyRow[]> {
      return trx.selectFrom('pki_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id').execute();
    },
    /**
     * Locks the key row for the rest of the transaction (a no-op update); false when it is gone.
     * Delete, issuance from the key and set cert take it first, so on PostgreSQL they run one
     * after the other for a key: a delete never misses a certificate committed meanwhile, and an
     * issuance never stores one for a deleted key (SQLite runs transactions one at a time anyway).
     */
    async lockKey(accountId: string, keyId: string, trx: Db = db): Promise<boolean> {
      const r = await trx
        .updateTable('pki_keys')
        .set((eb) => ({ name: eb.ref('name') }))
        .where('account_id', '=', accountId)
        .where('id', '=', keyId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async deleteKey(accountId: string, keyId: string, trx: Db = db): Promise<boolean> {
      const r = await trx.deleteFrom('pki_keys').where('account_id', '=', accountId).where('id', '=', keyId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** Realm deletion: every PKI row of the realm (certificates and records first). */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('pki_records').where('realm_id', '=', realmId).execute();
      await trx.deleteFrom('pki_certs').where('realm_id', '=', realmId).execute();
      await trx.deleteFrom('pki_keys').where('realm_id', '=', realmId).execute();
      const cas = trx.selectFrom('pki_cas').select('id').where('realm_id', '=', realmId);
      await trx.deleteFrom('pki_crls').where('ca_id', 'in', cas).execute();
      await trx.deleteFrom('pki_cas').where('realm_id', '=', realmId).execute();
    },
  };
}

export type PkiRepo = ReturnType<typeof createPkiRepo>;
