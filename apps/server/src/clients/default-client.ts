/**
 * Each realm's default client (issue 12 "Clients"): the one its own sign-in pages use when a
 * request names none. Created with the realm (realms.service's creation hook, same
 * transaction), for realms that predate it at start (composition/bootstrap.ts), and after an
 * import whose settings name a client the installation lacks. The realm setting
 * `default_client_id` names it; administrators may point it at another client of the realm.
 *
 * Idempotent and safe when two instances do it at once: the client id is decided by the
 * realm's state (its setting, else the realm id), the unique (realm_id, client_id) index keeps
 * one row, and the setting is written compare-and-set.
 */
import { CLIENT_LIMITS, CLIENT_SCOPES } from '@umbo/contracts';
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/crypto.js';
import type { Db, Transact } from '../platform/db.js';
import { parseStoredSettings } from '../realms/realm-settings.js';
import type { RealmRepo } from '../realms/realms.repo.js';
import type { ClientRepo, NewOAuthClient } from './clients.repo.js';

/** A fresh sign-in lasts like a console session (SPEC §4: 7 days); access tokens an hour. */
const DEFAULT_TOKEN_SEC = 60 * 60;
const DEFAULT_REFRESH_SEC = 7 * 24 * 60 * 60;
const CAS_ATTEMPTS = 3;

export function createDefaultClients(deps: {
  clients: ClientRepo;
  realms: Pick<RealmRepo, 'findRealmById' | 'updateRealmSettings'>;
  clock: Clock;
  transact: Transact;
  publicUrl: string;
}) {
  const { clients, realms, clock } = deps;
  // The console's own sign-in page receives the code (DESIGN.md §4: /user/loginSSO).
  const callback = `${deps.publicUrl.replace(/\/+$/, '')}/user/loginSSO`;

  async function defaultIdOf(realmId: string, trx?: Db): Promise<string> {
    const realm = await realms.findRealmById(realmId, trx);
    const id = realm ? parseStoredSettings(realm.settings).default_client_id : undefined;
    return typeof id === 'string' ? id : '';
  }

  /** A public client (no secret: PKCE, RFC 9700 §2.1.1) without a consent screen: the realm's own pages. */
  function defaultClient(realmId: string, realmName: string, clientId: string): NewOAuthClient {
    return {
      id: newId(),
      realmId,
      clientId,
      parentId: null,
      ownerAccountId: null,
      name: realmName.slice(0, CLIENT_LIMITS.nameMax),
      description: 'sign-in pages of the domain',
      secretHash: null,
      tokenEndpointAuthMethod: 'none',
      jwks: null,
      redirectUris: [callback],
      postLogoutRedirectUris: [callback],
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: [...CLIENT_SCOPES],
      tokenExpirSec: DEFAULT_TOKEN_SEC,
      refreshTokenExpirSec: DEFAULT_REFRESH_SEC,
      refreshTokenRecreate: true,
      authCodeMultiUse: false,
      consentRequired: false,
      signingAlg: 'ES256',
      loginTips: '',
      loginUrl: '',
      registUrl: '',
      sourceRanges: [],
      allowAuthCode: false,
      allowToken: false,
      disabled: false,
    };
  }

  /**
   * Makes sure `default_client_id` names a client of the realm: nothing when it does; else the
   * default client under the named id (or the realm id when none is named), and the setting
   * pointed at it. Answers the default client id ('' when the realm does not exist).
   */
  async function ensureDefault(realmId: string, trx?: Db): Promise<string> {
    const work = async (t: Db): Promise<string> => {
      for (let attempt = 1; ; attempt++) {
        const realm = await realms.findRealmById(realmId, t);
        if (!realm) return '';
        const stored = parseStoredSettings(realm.settings);
        const named = typeof stored.default_client_id === 'string' ? stored.default_client_id : '';
        const existing = named ? await clients.findByClientId(realmId, named, t) : undefined;
        if (existing) return named;
        const clientId = named || realmId;
        const now = clock.now();
        await clients.insertIfAbsent(defaultClient(realmId, realm.name, clientId), now, t);
        if (named === clientId) return clientId;
        const next = JSON.stringify({ ...stored, default_client_id: clientId });
        if (await realms.updateRealmSettings(realmId, realm.settings, next, now, t)) return clientId;
        // another writer changed the settings meanwhile: look again
        if (attempt >= CAS_ATTEMPTS) return clientId;
      }
    };
    return trx ? work(trx) : deps.transact(work);
  }

  /** default_client_id may name an enabled top-level client of the realm. */
  async function isDefaultCandidate(realmId: string, clientId: string): Promise<boolean> {
    const c = await clients.findByClientId(realmId, clientId);
    return Boolean(c && c.parentId === null && !c.disabled);
  }

  return { defaultIdOf, ensureDefault, isDefaultCandidate };
}
