/**
 * SQL for refresh tokens (oauth_refresh_tokens): the table's one writer. Stored only as keyed
 * hashes (AS-12). Consumption is one conditional UPDATE (`used_at IS NULL`), so of any number
 * of parallel refreshes of one token, on any number of instances, exactly one wins; rotation
 * inserts the successor in the same transaction (A-45: a failure between the two leaves the
 * old token valid and the new one unknown).
 */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../platform/db.js';
import type { OAuthFamilyTable, OAuthRefreshTokenTable } from '../oauth.tables.js';

export type OAuthRefreshToken = Selectable<OAuthRefreshTokenTable>;
export type NewOAuthRefreshToken = Insertable<OAuthRefreshTokenTable>;

/** A refresh token with its family's columns (prefixed `family_`). */
export interface RefreshTokenWithFamily extends OAuthRefreshToken {
  family_client_ref: OAuthFamilyTable['client_ref'];
  family_account_id: OAuthFamilyTable['account_id'];
  family_grant_type: OAuthFamilyTable['grant_type'];
  family_scope: OAuthFamilyTable['scope'];
  family_auth_time: OAuthFamilyTable['auth_time'];
  family_sid: OAuthFamilyTable['sid'];
  family_expires_at: OAuthFamilyTable['expires_at'];
  family_revoked_at: OAuthFamilyTable['revoked_at'];
  family_created_at: OAuthFamilyTable['created_at'];
}

export function createRefreshTokenRepo(db: Db) {
  return {
    async insert(row: NewOAuthRefreshToken, trx: Db = db): Promise<void> {
      await trx.insertInto('oauth_refresh_tokens').values(row).execute();
    },

    /** The token and its family, whatever their state (the grant tells expired, used and revoked apart). */
    findWithFamily(tokenHash: string, trx: Db = db): Promise<RefreshTokenWithFamily | undefined> {
      return trx
        .selectFrom('oauth_refresh_tokens as t')
        .innerJoin('oauth_families as f', 'f.id', 't.family_id')
        .selectAll('t')
        .select([
          'f.client_ref as family_client_ref',
          'f.account_id as family_account_id',
          'f.grant_type as family_grant_type',
          'f.scope as family_scope',
          'f.auth_time as family_auth_time',
          'f.sid as family_sid',
          'f.expires_at as family_expires_at',
          'f.revoked_at as family_revoked_at',
          'f.created_at as family_created_at',
        ])
        .where('t.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    /** Marks the token used; true only for the one call that did (RFC 9700 §4.14.2 rotation). */
    async consume(tokenHash: string, now: number, trx: Db = db): Promise<boolean> {
      const res = await trx
        .updateTable('oauth_refresh_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** Unused, unexpired tokens of a family (A-45 checks: at most one per family with rotation). */
    async countLive(familyId: string, now: number, trx: Db = db): Promise<number> {
      const r = await trx
        .selectFrom('oauth_refresh_tokens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('family_id', '=', familyId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    /** Sweep: expired tokens, and used ones whose successor has long replaced them. */
    async deleteExpired(before: number, trx: Db = db): Promise<number> {
      const res = await trx.deleteFrom('oauth_refresh_tokens').where('expires_at', '<', before).executeTakeFirst();
      return Number(res.numDeletedRows);
    },

    /** Realm deletion (before the families they belong to). */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('oauth_refresh_tokens').where('realm_id', '=', realmId).execute();
    },
  };
}

export type RefreshTokenRepo = ReturnType<typeof createRefreshTokenRepo>;
