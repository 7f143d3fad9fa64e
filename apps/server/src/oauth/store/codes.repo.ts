/**
 * SQL for authorization codes (oauth_codes): the table's one writer. Codes are stored only as
 * keyed hashes (AS-12); consumption is one conditional UPDATE, never read-then-write (AS-07).
 */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../platform/db.js';
import type { OAuthCodeTable } from '../oauth.tables.js';

export type OAuthCode = Selectable<OAuthCodeTable>;
export type NewOAuthCode = Insertable<OAuthCodeTable>;

export function createOAuthCodeRepo(db: Db) {
  return {
    async insert(row: NewOAuthCode, trx: Db = db): Promise<void> {
      await trx.insertInto('oauth_codes').values(row).execute();
    },
    /**
     * Single use (RFC 6749 §4.1.2, AS-07): the row only when THIS call set used_at. Of any number
     * of parallel calls, on any number of instances, exactly one gets it; the database decides.
     */
    consume(codeHash: string, now: number, trx: Db = db): Promise<OAuthCode | undefined> {
      return trx
        .updateTable('oauth_codes')
        .set({ used_at: now })
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
    },
    /** The row whatever its state: the token endpoint uses it to tell a reuse (revoke) from garbage. */
    find(codeHash: string, trx: Db = db): Promise<OAuthCode | undefined> {
      return trx.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
    },
    /** After the first redemption: the family it minted (revoked on reuse) and, for authCodeMulitUse, the sealed answer. */
    async setFamily(codeHash: string, familyId: string, responseSealed: string | null, trx: Db = db): Promise<void> {
      await trx.updateTable('oauth_codes').set({ family_id: familyId, response_sealed: responseSealed }).where('code_hash', '=', codeHash).execute();
    },
    /** The authCodeMulitUse answers are kept for their window only, then erased. */
    async clearSealed(before: number, trx: Db = db): Promise<number> {
      const res = await trx
        .updateTable('oauth_codes')
        .set({ response_sealed: null })
        .where('response_sealed', 'is not', null)
        .where('used_at', '<', before)
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
    /** Sweep: codes whose expiry is before `before` go (keep them past expiry long enough to detect reuse). */
    async deleteExpired(before: number, trx: Db = db): Promise<number> {
      const res = await trx.deleteFrom('oauth_codes').where('expires_at', '<', before).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
    /** Realm deletion. */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('oauth_codes').where('realm_id', '=', realmId).execute();
    },
  };
}

export type OAuthCodeRepo = ReturnType<typeof createOAuthCodeRepo>;
