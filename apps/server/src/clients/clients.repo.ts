/**
 * SQL for OAuth clients and sub clients (oauth_clients): the table's one writer. Rows are
 * answered parsed (JSON lists as arrays, 0/1 as booleans). Every lookup by public client id
 * names the realm (A-39): the same client_id may exist in two realms.
 */
import type { ClientJwks } from '@umbo/contracts';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../platform/db.js';
import type { OAuthClientTable } from './clients.tables.js';

export interface OAuthClient {
  id: string;
  realmId: string;
  clientId: string;
  /** the parent's row id for a sub client */
  parentId: string | null;
  ownerAccountId: string | null;
  name: string;
  description: string;
  /** keyed hash of the secret; null: none (public or private_key_jwt client) */
  secretHash: string | null;
  tokenEndpointAuthMethod: string;
  jwks: ClientJwks | null;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: string[];
  scopes: string[];
  tokenExpirSec: number;
  refreshTokenExpirSec: number;
  refreshTokenRecreate: boolean;
  authCodeMultiUse: boolean;
  consentRequired: boolean;
  signingAlg: string;
  loginTips: string;
  loginUrl: string;
  registUrl: string;
  sourceRanges: string[];
  allowAuthCode: boolean;
  allowToken: boolean;
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/** What a write sets: every field but the timestamps, which the caller passes as `now`. */
export type NewOAuthClient = Omit<OAuthClient, 'createdAt' | 'updatedAt'>;
/** What an update may change: never the id, realm, client id, parent or owner. */
export type OAuthClientPatch = Partial<Omit<NewOAuthClient, 'id' | 'realmId' | 'clientId' | 'parentId' | 'ownerAccountId'>>;

export interface ClientListFilter {
  /** start of the client id or of the name, case-insensitive */
  q?: string | undefined;
  /** only clients without a parent */
  topLevel?: boolean | undefined;
  /** only this developer's clients */
  ownerAccountId?: string | undefined;
}

function list(json: string | null): string[] {
  try {
    const v = JSON.parse(json ?? '[]') as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

function parseJwks(json: string | null): ClientJwks | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as ClientJwks;
  } catch {
    return null;
  }
}

export function toClient(r: Selectable<OAuthClientTable>): OAuthClient {
  return {
    id: r.id,
    realmId: r.realm_id,
    clientId: r.client_id,
    parentId: r.parent_id,
    ownerAccountId: r.owner_account_id,
    name: r.name,
    description: r.description,
    secretHash: r.secret_hash,
    tokenEndpointAuthMethod: r.token_endpoint_auth_method,
    jwks: parseJwks(r.jwks),
    redirectUris: list(r.redirect_uris),
    postLogoutRedirectUris: list(r.post_logout_redirect_uris),
    grantTypes: list(r.grant_types),
    scopes: list(r.scopes),
    tokenExpirSec: Number(r.token_expir_sec),
    refreshTokenExpirSec: Number(r.refresh_token_expir_sec),
    refreshTokenRecreate: Boolean(r.refresh_token_recreate),
    authCodeMultiUse: Boolean(r.auth_code_multi_use),
    consentRequired: Boolean(r.consent_required),
    signingAlg: r.signing_alg,
    loginTips: r.login_tips,
    loginUrl: r.login_url,
    registUrl: r.regist_url,
    sourceRanges: list(r.source_ranges),
    allowAuthCode: Boolean(r.allow_auth_code),
    allowToken: Boolean(r.allow_token),
    disabled: Boolean(r.disabled),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

const flag = (v: boolean) => (v ? 1 : 0);

/** The columns a patch sets (only the fields present). */
function columns(p: OAuthClientPatch): Partial<OAuthClientTable> {
  const out: Partial<OAuthClientTable> = {};
  if (p.name !== undefined) out.name = p.name;
  if (p.description !== undefined) out.description = p.description;
  if (p.secretHash !== undefined) out.secret_hash = p.secretHash;
  if (p.tokenEndpointAuthMethod !== undefined) out.token_endpoint_auth_method = p.tokenEndpointAuthMethod;
  if (p.jwks !== undefined) out.jwks = p.jwks ? JSON.stringify(p.jwks) : null;
  if (p.redirectUris !== undefined) out.redirect_uris = JSON.stringify(p.redirectUris);
  if (p.postLogoutRedirectUris !== undefined) out.post_logout_redirect_uris = JSON.stringify(p.postLogoutRedirectUris);
  if (p.grantTypes !== undefined) out.grant_types = JSON.stringify(p.grantTypes);
  if (p.scopes !== undefined) out.scopes = JSON.stringify(p.scopes);
  if (p.tokenExpirSec !== undefined) out.token_expir_sec = p.tokenExpirSec;
  if (p.refreshTokenExpirSec !== undefined) out.refresh_token_expir_sec = p.refreshTokenExpirSec;
  if (p.refreshTokenRecreate !== undefined) out.refresh_token_recreate = flag(p.refreshTokenRecreate);
  if (p.authCodeMultiUse !== undefined) out.auth_code_multi_use = flag(p.authCodeMultiUse);
  if (p.consentRequired !== undefined) out.consent_required = flag(p.consentRequired);
  if (p.signingAlg !== undefined) out.signing_alg = p.signingAlg;
  if (p.loginTips !== undefined) out.login_tips = p.loginTips;
  if (p.loginUrl !== undefined) out.login_url = p.loginUrl;
  if (p.registUrl !== undefined) out.regist_url = p.registUrl;
  if (p.sourceRanges !== undefined) out.source_ranges = JSON.stringify(p.sourceRanges);
  if (p.allowAuthCode !== undefined) out.allow_auth_code = flag(p.allowAuthCode);
  if (p.allowToken !== undefined) out.allow_token = flag(p.allowToken);
  if (p.disabled !== undefined) out.disabled = flag(p.disabled);
  return out;
}

function row(c: NewOAuthClient, now: number): OAuthClientTable {
  return {
    ...(columns(c) as Omit<OAuthClientTable, 'id' | 'realm_id' | 'client_id' | 'parent_id' | 'owner_account_id' | 'created_at' | 'updated_at'>),
    id: c.id,
    realm_id: c.realmId,
    client_id: c.clientId,
    parent_id: c.parentId,
    owner_account_id: c.ownerAccountId,
    secret_hash: c.secretHash,
    jwks: c.jwks ? JSON.stringify(c.jwks) : null,
    created_at: now,
    updated_at: now,
  };
}

export function createClientRepo(db: Db) {
  function filtered(trx: Db, realmId: string, f: ClientListFilter) {
    let s = trx.selectFrom('oauth_clients').where('realm_id', '=', realmId);
    if (f.topLevel) s = s.where('parent_id', 'is', null);
    if (f.ownerAccountId) s = s.where('owner_account_id', '=', f.ownerAccountId);
    if (f.q) {
      // Prefix match, the user's text escaped: a '%' typed is a '%' searched.
      const like = `${f.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      s = s.where((eb) =>
        eb.or([
          eb(eb.fn('lower', ['client_id']), 'like', sql<string>`${like} escape '\\'`),
          eb(eb.fn('lower', ['name']), 'like', sql<string>`${like} escape '\\'`),
        ]),
      );
    }
    return s;
  }

  return {
    async findByClientId(realmId: string, clientId: string, trx: Db = db): Promise<OAuthClient | undefined> {
      const r = await trx.selectFrom('oauth_clients').selectAll().where('realm_id', '=', realmId).where('client_id', '=', clientId).executeTakeFirst();
      return r && toClient(r);
    },
    async findById(id: string, trx: Db = db): Promise<OAuthClient | undefined> {
      const r = await trx.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
      return r && toClient(r);
    },
    /** A page of a realm's clients, oldest first (creation time, then id: a stable order). */
    async listByRealm(realmId: string, f: ClientListFilter & { limit: number; offset: number }, trx: Db = db): Promise<OAuthClient[]> {
      const rows = await filtered(trx, realmId, f).selectAll().orderBy('created_at').orderBy('id').limit(f.limit).offset(f.offset).execute();
      return rows.map(toClient);
    },
    async countByRealm(realmId: string, f: ClientListFilter, trx: Db = db): Promise<number> {
      const r = await filtered(trx, realmId, f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    /** The sub clients of one or more clients (row ids), oldest first. */
    async listChildren(parentRef: string | readonly string[], trx: Db = db): Promise<OAuthClient[]> {
      const refs = typeof parentRef === 'string' ? [parentRef] : [...parentRef];
      if (refs.length === 0) return [];
      const rows = await trx.selectFrom('oauth_clients').selectAll().where('parent_id', 'in', refs).orderBy('created_at').orderBy('id').execute();
      return rows.map(toClient);
    },
    /** Throws a unique violation when the client id is taken in the realm (the caller tells which). */
    async insert(c: NewOAuthClient, now: number, trx: Db = db): Promise<OAuthClient> {
      const values = row(c, now);
      await trx.insertInto('oauth_clients').values(values).execute();
      return toClient(values);
    },
    /**
     * Inserts unless the realm already has that client id; true when this call inserted. Two
     * instances creating a realm's default client at once: one row (the unique index decides).
     */
    async insertIfAbsent(c: NewOAuthClient, now: number, trx: Db = db): Promise<boolean> {
      const res = await trx
        .insertInto('oauth_clients')
        .values(row(c, now))
        .onConflict((oc) => oc.columns(['realm_id', 'client_id']).doNothing())
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    /** False when the client is gone (or is not of that realm). */
    async update(realmId: string, id: string, patch: OAuthClientPatch, now: number, trx: Db = db): Promise<boolean> {
      const res = await trx
        .updateTable('oauth_clients')
        .set({ ...columns(patch), updated_at: now })
        .where('realm_id', '=', realmId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /** The client and (by the foreign keys' cascade) its sub clients, records, codes and token families. */
    async delete(realmId: string, id: string, trx: Db = db): Promise<boolean> {
      const res = await trx.deleteFrom('oauth_clients').where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },
    /** Realm deletion: every client of the realm. */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<number> {
      // sub clients first: SQLite checks the self-reference row by row
      const subs = await trx.deleteFrom('oauth_clients').where('realm_id', '=', realmId).where('parent_id', 'is not', null).executeTakeFirst();
      const tops = await trx.deleteFrom('oauth_clients').where('realm_id', '=', realmId).executeTakeFirst();
      return Number(subs.numDeletedRows) + Number(tops.numDeletedRows);
    },
  };
}

export type ClientRepo = ReturnType<typeof createClientRepo>;
