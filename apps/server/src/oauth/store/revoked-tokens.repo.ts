/**
 * SQL for oauth_revoked_tokens: the table's one writer. Two kinds of single-use identifiers
 * live here until their token would have expired anyway:
 *   - access tokens revoked one by one (RFC 7009): their `jti`, checked by every validation;
 *   - private_key_jwt client assertions already used (RFC 7523 §3 "jti", single use): a keyed
 *     hash of client and jti (64 hex characters, never the shape of an access token's jti).
 */
import type { Db } from '../../platform/db.js';
import { isUniqueViolation } from '../../platform/db.js';

export function createRevokedTokenRepo(db: Db) {
  return {
    /** Adds the id; an id already there stays as it is. */
    async add(realmId: string, jti: string, expiresAt: number, trx: Db = db): Promise<void> {
      await trx
        .insertInto('oauth_revoked_tokens')
        .values({ jti, realm_id: realmId, expires_at: expiresAt })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute();
    },

    /** Adds the id; false when it was there already (a replay). The primary key decides, across instances. */
    async addOnce(realmId: string, jti: string, expiresAt: number, trx: Db = db): Promise<boolean> {
      try {
        const res = await trx
          .insertInto('oauth_revoked_tokens')
          .values({ jti, realm_id: realmId, expires_at: expiresAt })
          .onConflict((oc) => oc.column('jti').doNothing())
          .executeTakeFirst();
        return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },

    async has(realmId: string, jti: string, trx: Db = db): Promise<boolean> {
      const r = await trx.selectFrom('oauth_revoked_tokens').select('jti').where('jti', '=', jti).where('realm_id', '=', realmId).executeTakeFirst();
      return r !== undefined;
    },

    /** Sweep: ids whose token has expired need no remembering. */
    async deleteExpired(before: number, trx: Db = db): Promise<number> {
      const res = await trx.deleteFrom('oauth_revoked_tokens').where('expires_at', '<', before).executeTakeFirst();
      return Number(res.numDeletedRows);
    },

    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('oauth_revoked_tokens').where('realm_id', '=', realmId).execute();
    },
  };
}

export type RevokedTokenRepo = ReturnType<typeof createRevokedTokenRepo>;
