/**
 * A realm's signing keys (issue 12): sign, verify, publish, rotate.
 *
 * - A realm gets its ES256 key on first need, an RS256 key (RSA 2048) the first time a client
 *   asks for RS256. Private keys are PKCS#8 PEM sealed with the master key (Secrets.encrypt).
 * - Rotation (AS-29, A-25): the new key is published at once and signs from
 *   `use_after = now + KEY_PUBLISH_BEFORE_USE_SEC` (the JWKS cache lifetime), so relying parties
 *   that cached the previous JWKS know it before they meet it. The previous key retires at that
 *   moment and stays published until every token it signed has expired
 *   (`remove_after = retire + KEY_RETAIN_AFTER_RETIRE_SEC`).
 * - Each process caches a realm's keys for KEY_CACHE_TTL_MS (< the JWKS max-age), so instances
 *   agree within the cache lifetime the discovery document implies; signing reads no database
 *   while the cache is fresh and decrypts each private key once.
 * - Which key signs is a function of the rows and the clock only, so all instances choose alike.
 */
import crypto, { type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { SigningKeyInfo } from '@umbo/contracts';
import type { AuditActor, AuditService } from '../../audit/audit.service.js';
import type { Clock } from '../../platform/clock.js';
import type { Secrets } from '../../platform/crypto.js';
import type { Transact } from '../../platform/db.js';
import { assertThat } from '../../platform/errors.js';
import { KEY_CACHE_TTL_MS, KEY_PUBLISH_BEFORE_USE_SEC, KEY_RETAIN_AFTER_RETIRE_SEC, RSA_MODULUS_BITS } from '../defaults.js';
import { createSignatureCache, jwkThumbprint, JwtError, publicJwk, verifyJwt, type JwsAlg, type VerificationKey } from '../jwt.js';
import type { SigningKeyRepo, SigningKeyRow } from './keys.repo.js';
import { createSignBatch } from './sign-batch.js';

export type Jwk = Record<string, string>;

interface LoadedKey extends VerificationKey {
  row: SigningKeyRow;
  jwk: Jwk;
}

interface RealmKeys {
  loadedAt: number;
  keys: LoadedKey[];
}

export interface KeysCaller {
  actor: AuditActor | null;
  request?: { ip: string; userAgent: string };
}

const SEC = 1000;
const generate = promisify(crypto.generateKeyPair);
const newKeyPair = (alg: JwsAlg) => (alg === 'ES256' ? generate('ec', { namedCurve: 'P-256' }) : generate('rsa', { modulusLength: RSA_MODULUS_BITS }));
/** An unknown kid reloads the keys at most this often per realm (kid is attacker input). */
const UNKNOWN_KID_RELOAD_MS = 1000;

export function createOAuthKeysService(deps: {
  repo: SigningKeyRepo;
  secrets: Secrets;
  clock: Clock;
  audit: AuditService;
  transact: Transact;
  /** config.publicUrl (a trailing slash is dropped) */
  publicUrl: string;
  /** the realms area's lookup, passed down (realms sit below oauth) */
  realmExists: (realmId: string) => Promise<boolean>;
}) {
  const { repo, secrets, clock, audit, transact } = deps;
  const base = deps.publicUrl.replace(/\/+$/, '');
  const cache = new Map<string, RealmKeys>();
  const loading = new Map<string, Promise<RealmKeys>>();
  /** decrypted private keys by kid: a reload does not decrypt again */
  const privateKeys = new Map<string, KeyObject>();
  /** signatures asked for in one event-loop turn are made together (sign-batch.ts) */
  const signSoon = createSignBatch();
  /** first-key creations in flight, by realm and alg */
  const firstKeys = new Map<string, Promise<LoadedKey>>();
  /** tokens whose signature one of our keys verified (oauth/jwt.ts: everything else is checked on every call) */
  const verified = createSignatureCache();

  const issuer = (realmId: string) => `${base}/realms/${realmId}`;

  function toLoaded(row: SigningKeyRow): LoadedKey {
    const jwk = JSON.parse(row.public_jwk) as Jwk;
    return { kid: row.kid, alg: row.alg as JwsAlg, publicKey: crypto.createPublicKey({ key: jwk, format: 'jwk' }), row, jwk };
  }

  /** `join`: share a read already in flight; false after our own write, which it may predate. */
  async function load(realmId: string, join = true): Promise<RealmKeys> {
    const pending = loading.get(realmId);
    if (pending && join) return pending;
    const p = (async () => {
      const now = clock.now();
      const rows = await repo.listByRealm(realmId);
      // keys whose every token has expired leave the JWKS (AS-29); delete them when seen
      if (rows.some((r) => r.remove_after !== null && r.remove_after <= now)) await repo.deleteRemovable(realmId, now);
      const live = rows.filter((r) => r.remove_after === null || r.remove_after > now);
      const prev = cache.get(realmId)?.keys ?? [];
      const keys = live.map((r) => prev.find((k) => k.kid === r.kid && k.row.retired_at === r.retired_at) ?? toLoaded(r));
      for (const k of prev) if (!keys.some((x) => x.kid === k.kid)) privateKeys.delete(k.kid);
      const st = { loadedAt: now, keys };
      cache.set(realmId, st);
      return st;
    })();
    loading.set(realmId, p);
    try {
      return await p;
    } finally {
      if (loading.get(realmId) === p) loading.delete(realmId);
    }
  }

  async function keysOf(realmId: string): Promise<RealmKeys> {
    const st = cache.get(realmId);
    if (st && clock.now() - st.loadedAt < KEY_CACHE_TTL_MS) return st;
    return load(realmId);
  }

  /** Published keys of now: drops those past remove_after even between reloads. */
  const published = (st: RealmKeys, now: number) => st.keys.filter((k) => k.row.remove_after === null || k.row.remove_after > now);

  /** The signing key of `alg` at `now`: the newest generation whose use_after has come. */
  function activeOf(st: RealmKeys, alg: JwsAlg, now: number): LoadedKey | undefined {
    // one pass, no arrays: this runs for every token signed
    let first: LoadedKey | undefined;
    let ready: LoadedKey | undefined;
    for (const k of st.keys) {
      if (k.alg !== alg || (k.row.remove_after !== null && k.row.remove_after <= now)) continue;
      first ??= k;
      if (k.row.use_after <= now && (!ready || k.row.generation > ready.row.generation)) ready = k;
    }
    // none ready yet: the first published of `alg`
    return ready ?? first;
  }

  /** Inserts generation `generation` of `alg`; false when another instance took that generation. */
  async function createKey(realmId: string, alg: JwsAlg, generation: number, useAfter: number): Promise<SigningKeyRow | undefined> {
    // off the event loop: an RSA 2048 key takes tens of milliseconds
    const { privateKey, publicKey } = await newKeyPair(alg);
    const thumb = jwkThumbprint(publicJwk('', alg, publicKey));
    const jwk = publicJwk(thumb, alg, publicKey);
    const row: SigningKeyRow = {
      kid: thumb,
      realm_id: realmId,
      alg,
      public_jwk: JSON.stringify(jwk),
      private_sealed: secrets.encrypt(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()),
      created_at: clock.now(),
      use_after: useAfter,
      retired_at: null,
      remove_after: null,
      generation,
    };
    return (await repo.insert(row)) ? row : undefined;
  }

  /** The key that signs `alg` now, creating the realm's first one on first need (race-safe). */
  async function signingKey(realmId: string, alg: JwsAlg): Promise<LoadedKey> {
    let k = activeOf(await keysOf(realmId), alg, clock.now());
    if (k) return k;
    // none yet: the first key signs at once (no relying party can have cached an older JWKS)
    const st = await load(realmId);
    k = activeOf(st, alg, clock.now());
    if (k) return k;
    // one creation per realm and alg in this process; across processes the unique generation decides
    const slot = `${realmId}\0${alg}`;
    let creating = firstKeys.get(slot);
    if (!creating) {
      creating = (async () => {
        await createKey(realmId, alg, 1, clock.now());
        // whether ours or a concurrent instance's insert won, the row now exists: re-read it
        const found = activeOf(await load(realmId, false), alg, clock.now());
        if (!found) throw new Error(`no ${alg} signing key for realm ${realmId}`);
        return found;
      })();
      firstKeys.set(slot, creating);
      void creating.then(
        () => firstKeys.delete(slot),
        () => firstKeys.delete(slot),
      );
    }
    return creating;
  }

  function privateKeyOf(k: LoadedKey): KeyObject {
    let pk = privateKeys.get(k.kid);
    if (!pk) {
      pk = crypto.createPrivateKey(secrets.decrypt(k.row.private_sealed));
      privateKeys.set(k.kid, pk);
    }
    return pk;
  }

  function info(k: LoadedKey, now: number): SigningKeyInfo {
    const r = k.row;
    const status = r.use_after > now ? 'pending' : r.retired_at !== null && r.retired_at <= now ? 'retired' : 'active';
    return { kid: k.kid, alg: k.alg, createdAt: r.created_at, useAfter: r.use_after, retiredAt: r.retired_at, removeAfter: r.remove_after, status };
  }

  let lastUnknownKidReload = new Map<string, number>();

  return {
    issuer,

    /** Unknown realms answer 404 at the provider's endpoints. */
    realmExists: deps.realmExists,

    /** Signs with the realm's current key of `alg`; the header gets `alg` and `kid`. */
    async sign(realmId: string, alg: JwsAlg, header: { typ: string }, payload: object): Promise<string> {
      // the keys held and fresh (every token but the first few after a reload): no await on the way
      const st = cache.get(realmId);
      const now = clock.now();
      const k = (st && now - st.loadedAt < KEY_CACHE_TTL_MS ? activeOf(st, alg, now) : undefined) ?? (await signingKey(realmId, alg));
      return signSoon({ kid: k.kid, alg: k.alg, privateKey: privateKeyOf(k) }, header, payload);
    },

    /**
     * Verifies a JWT this realm issued: only the realm's published keys, `iss` = issuer(realmId),
     * the expected `typ`; throws JwtError (oauth/jwt.ts) on anything wrong.
     */
    async verify(
      realmId: string,
      jwt: string,
      opts: { typ: string; audience?: string; clockToleranceSec?: number; allowExpired?: boolean },
    ): Promise<Record<string, unknown>> {
      const run = (st: RealmKeys) => {
        const now = clock.now();
        return verifyJwt(jwt, published(st, now), { ...opts, issuer: issuer(realmId), now }, verified).payload;
      };
      const st = await keysOf(realmId);
      try {
        return run(st);
      } catch (err) {
        // a key another instance created since our last reload: re-read once, rate-limited
        if (!(err instanceof JwtError) || err.reason !== 'kid') throw err;
        const now = clock.now();
        if (now - (lastUnknownKidReload.get(realmId) ?? 0) < UNKNOWN_KID_RELOAD_MS) throw err;
        if (lastUnknownKidReload.size > 10_000) lastUnknownKidReload = new Map();
        lastUnknownKidReload.set(realmId, now);
        return run(await load(realmId));
      }
    },

    /** The realm's JWKS: every published key (pending, active, retired), public members only. */
    async jwks(realmId: string): Promise<{ keys: Jwk[] }> {
      await signingKey(realmId, 'ES256');
      const st = await keysOf(realmId);
      return { keys: published(st, clock.now()).map((k) => ({ ...k.jwk })) };
    },

    /** The console's view (1004 for an unknown realm). */
    async list(realmId: string): Promise<SigningKeyInfo[]> {
      assertThat(await deps.realmExists(realmId), 'NOT_FOUND');
      await signingKey(realmId, 'ES256');
      const now = clock.now();
      return published(await load(realmId, false), now).map((k) => info(k, now));
    },

    /**
     * Rotates every algorithm the realm uses (AS-29): a new key per alg, published now, signing
     * after the publish delay; the previous keys retire then and stay published for the
     * longest token lifetime. Concurrent rotations: one new generation wins, the other re-reads.
     */
    async rotate(realmId: string, caller: KeysCaller): Promise<SigningKeyInfo[]> {
      assertThat(await deps.realmExists(realmId), 'NOT_FOUND');
      await signingKey(realmId, 'ES256');
      const st = await load(realmId, false);
      const now = clock.now();
      const useAfter = now + KEY_PUBLISH_BEFORE_USE_SEC * SEC;
      const algs = [...new Set(published(st, now).map((k) => k.alg))];
      for (const alg of algs) {
        const top = Math.max(...st.keys.filter((k) => k.alg === alg).map((k) => k.row.generation));
        const created = await createKey(realmId, alg, top + 1, useAfter);
        if (!created) continue;
        await transact(async (trx) => {
          await repo.retireOlder(realmId, alg, created.generation, useAfter, useAfter + KEY_RETAIN_AFTER_RETIRE_SEC * SEC, trx);
          await audit.record(
            {
              realmId,
              actor: caller.actor,
              action: 'oauth.key.rotated',
              target: { type: 'signing_key', id: created.kid, name: alg },
              result: 'ok',
              request: caller.request,
              detail: { alg, kid: created.kid, useAfter },
            },
            trx,
          );
        });
      }
      const after = await load(realmId, false);
      return published(after, clock.now()).map((k) => info(k, clock.now()));
    },

    /** Forgets the cached keys (tests; realm deletion). */
    forget(realmId: string): void {
      cache.delete(realmId);
    },
  };
}

export type OAuthKeysService = ReturnType<typeof createOAuthKeysService>;
