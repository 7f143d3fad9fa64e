/**
 * SQL for token families (oauth_families): the table's one writer. A family is one
 * authorization's tokens: its refresh-token chain and every access token minted from it (the
 * `gid` claim). Revoking the family ends them all; sub-client families (token exchange,
 * allowAuthCode codes) point at the family they were derived from (`parent_id`), and
 * revocation follows that chain down.
 */
import { sql, type Insertable, type Selectable } from 'kysely';
import { prepare } from '../../platform/prepared.js';
import type { Db } from '../../platform/db.js';
import type { OAuthFamilyTable } from '../oauth.tables.js';

export type OAuthFamily = Selectable<OAuthFamilyTable>;
export type NewOAuthFamily = Insertable<OAuthFamilyTable>;

/** Which families a revocation names; at least one field. */
export interface FamilyMatch {
  realmId?: string | undefined;
  accountId?: string | undefined;
  /** the client's row id */
  clientRef?: string | undefined;
  familyId?: string | undefined;
}

/** Everything an access token's liveness depends on, read in one statement (oauth/tokens/access-tokens.ts). */
export interface TokenState {
  client_ref: string;
  client_disabled: number;
  family_realm: string | null;
  family_client: string | null;
  family_revoked: number | null;
  family_expires: number | null;
  jti_revoked: string | null;
  account_id: string | null;
  account_realm: string | null;
  account_disabled: number | null;
  username: string | null;
  email: string | null;
  phone: string | null;
  activated: number | null;
  updated_at: number | null;
}

/** Revocation follows parent_id at most this deep (a sub client's sub client is not a thing: 2 would do). */
const MAX_CHAIN_DEPTH = 8;

export function createFamilyRepo(db: Db) {
  // Read on every introspection and userinfo call: built and compiled once (issue 12 bench:
  // Kysely's builder and compiler cost more than the read itself). Each value is bound as
  // cast(? as text): with planner samples (sqlite_stat4, from the `pragma optimize` at start)
  // SQLite looks at a bare parameter's value when it plans a join, and so prepares the
  // statement anew whenever that value changes — on every call here, ~35 µs of ~40. The
  // cast hides the value from the planner, and means the same on PostgreSQL.
  const text = (v: string) => sql<string>`cast(${v} as text)`;
  const tokenStateQuery = prepare<{ realmId: string; clientId: string; familyId: string; jti: string; accountId: string }>(db, (p) =>
    db
      .selectFrom('oauth_clients as c')
      .leftJoin('oauth_families as f', (j) => j.on('f.id', '=', text(p('familyId'))).onRef('f.client_ref', '=', 'c.id'))
      .leftJoin('oauth_revoked_tokens as r', (j) => j.on('r.jti', '=', text(p('jti'))).onRef('r.realm_id', '=', 'c.realm_id'))
      .leftJoin('accounts as a', (j) => j.on('a.id', '=', text(p('accountId'))).onRef('a.realm_id', '=', 'c.realm_id'))
      .where('c.realm_id', '=', text(p('realmId')))
      .where('c.client_id', '=', text(p('clientId')))
      .select([
        'c.id as client_ref',
        'c.disabled as client_disabled',
        'f.realm_id as family_realm',
        'f.client_ref as family_client',
        'f.revoked_at as family_revoked',
        'f.expires_at as family_expires',
        'r.jti as jti_revoked',
        'a.id as account_id',
        'a.realm_id as account_realm',
        'a.disabled as account_disabled',
        'a.username as username',
        'a.email as email',
        'a.phone as phone',
        'a.activated as activated',
        'a.updated_at as updated_at',
      ]),
  );
  return {
    async insert(row: NewOAuthFamily, trx: Db = db): Promise<void> {
      await trx.insertInto('oauth_families').values(row).execute();
    },

    find(id: string, trx: Db = db): Promise<OAuthFamily | undefined> {
      return trx.selectFrom('oauth_families').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * The state an access token of client `clientId` (public id) in `realmId` depends on: the
     * client, its family (`familyId`, when the token has one), whether its `jti` was revoked,
     * and the account (`accountId`, for user tokens). One round trip: introspection and
     * userinfo read nothing else.
     */
    async tokenState(
      realmId: string,
      clientId: string,
      familyId: string | null,
      jti: string,
      accountId: string | null,
      trx: Db = db,
    ): Promise<TokenState | undefined> {
      const { rows } = await tokenStateQuery.run<TokenState>({ realmId, clientId, familyId: familyId ?? '', jti, accountId: accountId ?? '' }, trx);
      return rows[0];
    },

    /**
     * Revokes the matching live families and, down the parent_id chain, every family derived
     * from them (sub-client tokens: revoking the parent's grant revokes them, issue 12).
     * Answers the ids revoked by this call.
     */
    async revoke(match: FamilyMatch, now: number, reason: string, trx: Db = db): Promise<string[]> {
      if (!match.accountId && !match.clientRef && !match.familyId) throw new Error('revoke: name a family, client or account');
      let q = trx.updateTable('oauth_families').set({ revoked_at: now, revoke_reason: reason }).where('revoked_at', 'is', null);
      if (match.realmId) q = q.where('realm_id', '=', match.realmId);
      if (match.accountId) q = q.where('account_id', '=', match.accountId);
      if (match.clientRef) q = q.where('client_ref', '=', match.clientRef);
      if (match.familyId) q = q.where('id', '=', match.familyId);
      const revoked = (await q.returning('id').execute()).map((r) => r.id);
      // the chain below: parents named even when already revoked (a child minted from a
      // revoked parent cannot exist, but a revocation must not depend on that)
      let frontier = match.familyId ? [...new Set([...revoked, match.familyId])] : revoked;
      for (let depth = 0; depth < MAX_CHAIN_DEPTH && frontier.length > 0; depth++) {
        const children = await trx
          .updateTable('oauth_families')
          .set({ revoked_at: now, revoke_reason: reason })
          .where('parent_id', 'in', frontier)
          .where('revoked_at', 'is', null)
          .returning('id')
          .execute();
        frontier = children.map((r) => r.id);
        revoked.push(...frontier);
      }
      return revoked;
    },

    /** Sweep: families past their absolute end (their refresh tokens go by the foreign key's cascade). */
    async deleteExpired(before: number, trx: Db = db): Promise<number> {
      const res = await trx.deleteFrom('oauth_families').where('expires_at', '<', before).executeTakeFirst();
      return Number(res.numDeletedRows);
    },

    /** Realm deletion (after refresh tokens: SQLite checks row by row). */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('oauth_families').where('realm_id', '=', realmId).execute();
    },
  };
}

export type FamilyRepo = ReturnType<typeof createFamilyRepo>;
