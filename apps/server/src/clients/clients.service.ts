/**
 * OAuth clients and sub clients (SPEC §3, §5, §9; issue 12): the rules behind the two doors,
 * administrators of a realm (client.<action>, decided by the guard in that realm) and
 * developers acting on the clients they own (userClient.<action>, in their own realm).
 *
 * Secrets: 32 random characters (SPEC §9; ≈190 bits, AS-12), answered once at creation and at
 * regeneration, stored only as a keyed HMAC (`secrets.hash('client-secret', …)`): fast to check
 * at the token endpoint (issue 12 bench: no slow password hash) and useless without the master
 * key. Every change writes its audit event in its own transaction, never with a secret.
 */
import {
  clientRuleProblems,
  type ClientCreated,
  type ClientCreateInput,
  type ClientListItem,
  type ClientListParams,
  type ClientListResult,
  type ClientSecretAnswer,
  type ClientUpdateBody,
  type ClientView,
  type SubClientCreateInput,
  type TokenEndpointAuthMethod,
} from '@umbo/contracts';
import type { AccountRepo } from '../accounts/accounts.repo.js';
import type { AuditActor, AuditService } from '../audit/audit.service.js';
import type { Clock } from '../platform/clock.js';
import { constantTimeEqual, newId, randomString, type Secrets } from '../platform/crypto.js';
import { isUniqueViolation, type Db, type Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import type { RealmRepo } from '../realms/realms.repo.js';
import { createDefaultClients } from './default-client.js';
import type { ClientRepo, NewOAuthClient, OAuthClient, OAuthClientPatch } from './clients.repo.js';

export const SECRET_PURPOSE = 'client-secret';
const GENERATED = 32;
const SECRET_METHODS = new Set<string>(['client_secret_basic', 'client_secret_post']);

/** Where a call acts: a realm an administrator names, or (ownerAccountId set) a developer's own clients. */
export interface ClientScope {
  realmId: string;
  ownerAccountId?: string | undefined;
}

export interface ClientCaller {
  actor: AuditActor | null;
  request?: { ip: string; userAgent: string } | undefined;
}

export interface ClientDeps {
  clients: ClientRepo;
  realms: Pick<RealmRepo, 'findRealmById' | 'updateRealmSettings'>;
  /** AS-20: a client id never equals an account id (a user's `sub`) */
  accounts: Pick<AccountRepo, 'findAccountById'>;
  audit: AuditService;
  secrets: Secrets;
  clock: Clock;
  transact: Transact;
  /** the console's address: the default client's redirect URI is its sign-in page */
  publicUrl: string;
}

/** The view's fields from the stored ones (the API names SPEC §3's, the table its own). */
const FIELD_OF: Record<string, keyof OAuthClientPatch> = {
  name: 'name',
  desc: 'description',
  authCodeMulitUse: 'authCodeMultiUse',
  tokenExpirSec: 'tokenExpirSec',
  refreshtokenExpirSec: 'refreshTokenExpirSec',
  refreshTokenRecreate: 'refreshTokenRecreate',
  redirectUris: 'redirectUris',
  postLogoutRedirectUris: 'postLogoutRedirectUris',
  loginTips: 'loginTips',
  loginUrl: 'loginUrl',
  registUrl: 'registUrl',
  grantTypes: 'grantTypes',
  scopes: 'scopes',
  tokenEndpointAuthMethod: 'tokenEndpointAuthMethod',
  jwks: 'jwks',
  consentRequired: 'consentRequired',
  signingAlg: 'signingAlg',
  sourceRanges: 'sourceRanges',
  disabled: 'disabled',
  allowAuthCode: 'allowAuthCode',
  allowToken: 'allowToken',
};

/** An API body (create or update) as the stored fields it sets. */
function patchOf(body: Partial<Record<keyof typeof FIELD_OF, unknown>>): OAuthClientPatch {
  const out: Record<string, unknown> = {};
  for (const [api, field] of Object.entries(FIELD_OF)) if (body[api] !== undefined) out[field] = body[api];
  return out as OAuthClientPatch;
}

export function createClientsService(deps: ClientDeps) {
  const { clients, audit, secrets, clock, transact } = deps;
  const defaults = createDefaultClients(deps);

  const hashSecret = (secret: string) => secrets.hash(SECRET_PURPOSE, secret);
  const newSecretFor = (method: string) => (SECRET_METHODS.has(method) ? randomString(GENERATED) : null);

  /** The realm's default_client_id ('' when the realm is gone). */
  const defaultIdOf = (realmId: string) => defaults.defaultIdOf(realmId);

  function item(c: OAuthClient, parentClientId: string | null, defaultId: string): ClientListItem {
    return {
      clientId: c.clientId,
      realmId: c.realmId,
      name: c.name,
      desc: c.description,
      parentClientId,
      ownerAccountId: c.ownerAccountId,
      tokenEndpointAuthMethod: c.tokenEndpointAuthMethod as TokenEndpointAuthMethod,
      grantTypes: c.grantTypes,
      redirectUris: c.redirectUris,
      disabled: c.disabled,
      allowAuthCode: c.allowAuthCode,
      allowToken: c.allowToken,
      isDefault: c.parentId === null && c.clientId === defaultId,
      createTime: c.createdAt,
    };
  }

  async function view(c: OAuthClient, trx?: Db): Promise<ClientView> {
    const parent = c.parentId ? await clients.findById(c.parentId, trx) : undefined;
    return {
      ...item(c, parent?.clientId ?? null, await defaults.defaultIdOf(c.realmId, trx)),
      authCodeMulitUse: c.authCodeMultiUse,
      tokenExpirSec: c.tokenExpirSec,
      refreshtokenExpirSec: c.refreshTokenExpirSec,
      refreshTokenRecreate: c.refreshTokenRecreate,
      postLogoutRedirectUris: c.postLogoutRedirectUris,
      loginTips: c.loginTips,
      loginUrl: c.loginUrl,
      registUrl: c.registUrl,
      scopes: c.scopes,
      jwks: c.jwks,
      consentRequired: c.consentRequired,
      signingAlg: c.signingAlg as ClientView['signingAlg'],
      sourceRanges: c.sourceRanges,
      hasSecret: c.secretHash !== null,
      updateTime: c.updatedAt,
    };
  }

  /** A client of the scope: of the realm, and the developer's own on their door (1004 otherwise: A-39). */
  async function clientIn(scope: ClientScope, clientId: string): Promise<OAuthClient> {
    const c = await clients.findByClientId(scope.realmId, clientId);
    assertThat(c && (scope.ownerAccountId === undefined || c.ownerAccountId === scope.ownerAccountId), 'NOT_FOUND');
    return c;
  }

  function record(
    caller: ClientCaller,
    c: Pick<OAuthClient, 'realmId' | 'clientId' | 'name'>,
    action: string,
    trx: Db,
    changes?: string[],
    detail?: Record<string, string>,
  ) {
    return audit.record(
      {
        realmId: c.realmId,
        actor: caller.actor,
        action,
        target: { type: 'client', id: c.clientId, name: c.name },
        result: 'ok',
        request: caller.request,
        ...(changes ? { changes } : {}),
        ...(detail ? { detail } : {}),
      },
      trx,
    );
  }

  async function list(scope: ClientScope, q: ClientListParams): Promise<ClientListResult> {
    const filter = { q: q.q, topLevel: true, ownerAccountId: scope.ownerAccountId };
    const [rows, total, defaultId] = await Promise.all([
      clients.listByRealm(scope.realmId, { ...filter, limit: q.limit, offset: q.offset }),
      clients.countByRealm(scope.realmId, filter),
      defaultIdOf(scope.realmId),
    ]);
    if (q.parent === 'none') return { items: rows.map((c) => item(c, null, defaultId)), total };
    const children = await clients.listChildren(rows.map((c) => c.id));
    return {
      items: rows.map((c) => ({
        ...item(c, null, defaultId),
        subClients: children.filter((s) => s.parentId === c.id).map((s) => item(s, c.clientId, defaultId)),
      })),
      total,
    };
  }

  async function get(scope: ClientScope, clientId: string): Promise<ClientView> {
    return view(await clientIn(scope, clientId));
  }

  /** Inserts with its audit event; a taken id (checked first, the unique index decides a race) is `taken`. */
  async function insertNew(caller: ClientCaller, c: NewOAuthClient, taken: () => Error, action: string): Promise<OAuthClient> {
    if (await clients.findByClientId(c.realmId, c.clientId)) throw taken();
    // AS-20 (RFC 9700 §4.15): a chosen client id must not pass for a user's `sub` in tokens
    if (await deps.accounts.findAccountById(c.realmId, c.clientId)) throw taken();
    try {
      return await transact(async (trx) => {
        const created = await clients.insert(c, clock.now(), trx);
        await record(caller, created, action, trx, undefined, created.parentId ? { parent: c.parentId ?? '' } : undefined);
        return created;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw taken();
      throw err;
    }
  }

  async function create(scope: ClientScope, caller: ClientCaller, body: ClientCreateInput): Promise<ClientCreated> {
    const secret = newSecretFor(body.tokenEndpointAuthMethod);
    const c: NewOAuthClient = {
      ...(patchOf(body) as Required<OAuthClientPatch>),
      id: newId(),
      realmId: scope.realmId,
      clientId: body.clientId ?? randomString(GENERATED),
      parentId: null,
      ownerAccountId: scope.ownerAccountId ?? null,
      secretHash: secret === null ? null : hashSecret(secret),
      allowAuthCode: false,
      allowToken: false,
    };
    const created = await insertNew(caller, c, () => fail('CLIENT_ID_TAKEN', { field: 'clientId' }), 'client.create');
    return { client: await view(created), clientSecret: secret };
  }

  async function update(scope: ClientScope, caller: ClientCaller, clientId: string, body: ClientUpdateBody): Promise<ClientView> {
    const c = await clientIn(scope, clientId);
    const isSub = c.parentId !== null;
    for (const flag of ['allowAuthCode', 'allowToken'] as const) {
      if (body[flag] !== undefined && !isSub) throw fail('INVALID_PARAMETER', { field: flag, reason: 'sub clients only' });
    }
    const patch = patchOf(body);
    const merged = { ...c, ...patch };
    const problem = clientRuleProblems({
      tokenEndpointAuthMethod: merged.tokenEndpointAuthMethod as TokenEndpointAuthMethod,
      grantTypes: merged.grantTypes as ClientCreateInput['grantTypes'],
      jwks: merged.jwks,
      sourceRanges: merged.sourceRanges,
    })[0];
    if (problem) throw fail('INVALID_PARAMETER', problem);
    // Only a secret method keeps a secret; switching to one leaves none until it is regenerated.
    if (!SECRET_METHODS.has(merged.tokenEndpointAuthMethod) && c.secretHash !== null) patch.secretHash = null;
    const changes = Object.entries(FIELD_OF)
      .filter(([, field]) => patch[field] !== undefined && JSON.stringify(patch[field]) !== JSON.stringify(c[field]))
      .map(([api]) => api);
    if (changes.length === 0) return view(c);
    if (patch.disabled && !c.disabled && (await defaultIdOf(c.realmId)) === c.clientId && !isSub) throw fail('DEFAULT_CLIENT_PROTECTED');
    return transact(async (trx) => {
      assertThat(await clients.update(c.realmId, c.id, patch, clock.now(), trx), 'NOT_FOUND');
      const action = changes.length === 1 && changes[0] === 'disabled' ? (patch.disabled ? 'client.disable' : 'client.enable') : 'client.update';
      await record(caller, { ...c, name: patch.name ?? c.name }, action, trx, changes);
      const after = await clients.findById(c.id, trx);
      assertThat(after, 'NOT_FOUND');
      return view(after, trx);
    });
  }

  /** The client and its sub clients go, with their records, codes and token families (foreign keys). */
  async function remove(scope: ClientScope, caller: ClientCaller, clientId: string): Promise<void> {
    const c = await clientIn(scope, clientId);
    if (c.parentId === null && (await defaultIdOf(c.realmId)) === c.clientId) throw fail('DEFAULT_CLIENT_PROTECTED');
    await transact(async (trx) => {
      assertThat(await clients.delete(c.realmId, c.id, trx), 'NOT_FOUND');
      await record(caller, c, 'client.delete', trx);
    });
  }

  /** A new secret, answered once; the old one stops working at once (only its hash was kept). */
  async function regenerateSecret(scope: ClientScope, caller: ClientCaller, clientId: string): Promise<ClientSecretAnswer> {
    const c = await clientIn(scope, clientId);
    assertThat(SECRET_METHODS.has(c.tokenEndpointAuthMethod), 'CLIENT_NO_SECRET');
    const secret = randomString(GENERATED);
    await transact(async (trx) => {
      assertThat(await clients.update(c.realmId, c.id, { secretHash: hashSecret(secret) }, clock.now(), trx), 'NOT_FOUND');
      await record(caller, c, 'client.secret', trx, ['secret']);
    });
    return { clientId: c.clientId, clientSecret: secret };
  }

  /**
   * SPEC §3 sub client: under a top-level client of the same realm (and the same developer on
   * their door), a confidential client of its own; unset lifetimes and signing follow the parent.
   */
  async function createSub(scope: ClientScope, caller: ClientCaller, parentClientId: string, body: SubClientCreateInput): Promise<ClientCreated> {
    const parent = await clientIn(scope, parentClientId);
    assertThat(parent.parentId === null, 'SUB_CLIENT_PARENT');
    const secret = randomString(GENERATED);
    const c: NewOAuthClient = {
      id: newId(),
      realmId: parent.realmId,
      clientId: body.subClientId ?? randomString(GENERATED),
      parentId: parent.id,
      ownerAccountId: parent.ownerAccountId,
      name: body.name,
      description: body.desc,
      secretHash: hashSecret(secret),
      tokenEndpointAuthMethod: 'client_secret_basic',
      jwks: null,
      redirectUris: body.redirectUris,
      postLogoutRedirectUris: [],
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: parent.scopes,
      tokenExpirSec: body.tokenExpirSec ?? parent.tokenExpirSec,
      refreshTokenExpirSec: body.refreshtokenExpirSec ?? parent.refreshTokenExpirSec,
      refreshTokenRecreate: parent.refreshTokenRecreate,
      authCodeMultiUse: false,
      consentRequired: parent.consentRequired,
      signingAlg: parent.signingAlg,
      loginTips: '',
      loginUrl: '',
      registUrl: '',
      sourceRanges: [],
      allowAuthCode: body.allowAuthCode,
      allowToken: body.allowToken,
      disabled: false,
    };
    const created = await insertNew(caller, c, () => fail('SUB_CLIENT_ID_TAKEN', { field: 'subClientId' }), 'client.create');
    return { client: await view(created), clientSecret: secret };
  }

  async function listSubs(scope: ClientScope, parentClientId: string): Promise<ClientListResult> {
    const parent = await clientIn(scope, parentClientId);
    const [children, defaultId] = await Promise.all([clients.listChildren(parent.id), defaultIdOf(parent.realmId)]);
    return { items: children.map((s) => item(s, parent.clientId, defaultId)), total: children.length };
  }

  /**
   * The token endpoint's check of a presented secret: one HMAC and a constant-time compare
   * (RFC 6819 §5.1.4.1.3 hashed, no timing oracle). A client without a secret never matches.
   */
  function verifySecret(client: Pick<OAuthClient, 'secretHash'>, presented: string): boolean {
    const hash = hashSecret(presented);
    if (client.secretHash === null) {
      constantTimeEqual(hash, hash);
      return false;
    }
    return constantTimeEqual(hash, client.secretHash);
  }

  return {
    list,
    get,
    create,
    update,
    remove,
    regenerateSecret,
    createSub,
    listSubs,
    verifySecret,
    /** realm creation's hook: the realm's default client, in the creating transaction */
    createDefault: defaults.ensureDefault,
    ensureDefault: defaults.ensureDefault,
    /** realm settings: may default_client_id name this client? */
    isDefaultCandidate: defaults.isDefaultCandidate,
  };
}

export type ClientsService = ReturnType<typeof createClientsService>;
