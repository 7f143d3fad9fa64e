/**
 * Compact JWS signing and verification with node:crypto (issue 12). Pure functions over a
 * key list, so every rule below is unit-tested without a database.
 *
 * Verification rules (AS-23, AS-24; RFC 8725 §3.1–3.2, §3.11):
 * - the algorithm is fixed by the key, never chosen by the token: `alg` must equal the alg
 *   of the key found by `kid` (so no `none`, no HS256 keyed with our public key);
 * - keys come only from the list the caller passes (our JWKS, or a client's registered
 *   keys): `jwk`/`jku`/`x5u`/`x5c` headers are refused, never fetched; `kid` is untrusted
 *   input, only compared for equality against that list;
 * - `typ` compared case-insensitively with an optional `application/` prefix (RFC 7515 §4.1.9);
 * - `iss`, `aud` (when asked), `exp` (required), `nbf`, `iat` with a leeway of at most 60 s.
 */
import crypto, { type KeyObject } from 'node:crypto';
import { JWT_LEEWAY_SEC, RSA_MODULUS_BITS } from './defaults.js';

export type JwsAlg = 'ES256' | 'RS256';
export const JWS_ALGS: readonly JwsAlg[] = ['ES256', 'RS256'];

export interface SigningKey {
  kid: string;
  alg: JwsAlg;
  privateKey: KeyObject;
}

export interface VerificationKey {
  kid: string;
  alg: JwsAlg;
  publicKey: KeyObject;
}

export type JwtErrorReason = 'malformed' | 'header' | 'alg' | 'kid' | 'signature' | 'typ' | 'iss' | 'aud' | 'exp' | 'nbf' | 'iat';

/** Anything wrong with a presented JWT. The message never contains the token. */
export class JwtError extends Error {
  constructor(
    readonly reason: JwtErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'JwtError';
  }
}

/** A JWT larger than this is refused before any parsing (headers are bounded too). */
const MAX_JWT_LENGTH = 16 * 1024;
const MAX_KID_LENGTH = 128;
const B64URL = /^[A-Za-z0-9_-]*$/;
/** Headers that would let the token choose its own key (RFC 8725 §3.2 / AS-24). */
const KEY_BEARING_HEADERS = ['jwk', 'jku', 'x5u', 'x5c'] as const;

const b64 = (s: string) => Buffer.from(s).toString('base64url');

function signatureOf(alg: JwsAlg, key: KeyObject, data: Buffer): Buffer {
  // ES256: JWS wants R||S (RFC 7518 §3.4), not DER: 'ieee-p1363'
  return alg === 'ES256' ? crypto.sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' }) : crypto.sign('sha256', data, key);
}

/**
 * Encoded `{typ, alg, kid}` headers: the same few for every token a key signs (issue 12 bench:
 * encoding it anew was a measurable share of a client_credentials token after the signature).
 */
const encodedHeaders = new Map<string, string>();

function encodedHeader(key: SigningKey, header: { typ: string }): string {
  // only the plain {typ} header is kept: anything else (tests' crit) is encoded as given
  if (Object.keys(header).length !== 1) return b64(JSON.stringify({ ...header, alg: key.alg, kid: key.kid }));
  const slot = `${header.typ}\0${key.alg}\0${key.kid}`;
  let h = encodedHeaders.get(slot);
  if (h === undefined) {
    if (encodedHeaders.size >= 256) encodedHeaders.clear();
    h = b64(JSON.stringify({ typ: header.typ, alg: key.alg, kid: key.kid }));
    encodedHeaders.set(slot, h);
  }
  return h;
}

/** Signs `payload` with `key`; the header gets `alg` and `kid` from the key. */
export function signJwt(key: SigningKey, header: { typ: string }, payload: object): string {
  const input = `${encodedHeader(key, header)}.${b64(JSON.stringify(payload))}`;
  return `${input}.${signatureOf(key.alg, key.privateKey, Buffer.from(input)).toString('base64url')}`;
}

/** A key is usable for its alg only (RFC 7518 §3.3: RSA ≥ 2048 bits; §3.4: P-256 for ES256). */
export function keyFitsAlg(alg: JwsAlg, key: KeyObject): boolean {
  const d = key.asymmetricKeyDetails;
  if (alg === 'ES256') return key.asymmetricKeyType === 'ec' && d?.namedCurve === 'prime256v1';
  return key.asymmetricKeyType === 'rsa' && (d?.modulusLength ?? 0) >= 2048;
}

export interface VerifyOptions {
  /** expected `typ` ('at+jwt', 'JWT'); null: not checked (client assertions, RFC 7523 has none) */
  typ: string | null;
  issuer: string;
  /** when given, `aud` (string or array) must contain it */
  audience?: string;
  /** ms since the epoch: the server clock */
  now: number;
  /** at most JWT_LEEWAY_SEC; larger values are capped */
  clockToleranceSec?: number;
  /** without `kid`, try the keys of the header's alg (a client's single registered key); default false */
  kidOptional?: boolean;
  /** accept a past `exp` (still required): RP-Initiated Logout §2's id_token_hint only */
  allowExpired?: boolean;
}

export interface VerifiedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

function parseJson(part: string, what: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new JwtError('malformed', `${what} is not JSON`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new JwtError('malformed', `${what} is not a JSON object`);
  return v as Record<string, unknown>;
}

/** RFC 7515 §4.1.9: media types compare case-insensitively, `application/` may be omitted. */
function normTyp(t: string): string {
  const l = t.toLowerCase();
  return l.startsWith('application/') ? l.slice('application/'.length) : l;
}

function checkHeader(header: Record<string, unknown>, opts: VerifyOptions): { alg: JwsAlg; kid: string | undefined } {
  const { alg, kid, typ } = header;
  if (typeof alg !== 'string' || !(JWS_ALGS as readonly string[]).includes(alg)) throw new JwtError('alg', 'alg not allowed');
  for (const h of KEY_BEARING_HEADERS) if (h in header) throw new JwtError('header', `the ${h} header is not accepted`);
  // RFC 7515 §4.1.11: we understand no extension, so any `crit` must be refused
  if ('crit' in header) throw new JwtError('header', 'crit is not supported');
  if (kid !== undefined && (typeof kid !== 'string' || kid.length === 0 || kid.length > MAX_KID_LENGTH)) throw new JwtError('kid', 'bad kid');
  if (kid === undefined && !opts.kidOptional) throw new JwtError('kid', 'kid required');
  if (opts.typ !== null && (typeof typ !== 'string' || normTyp(typ) !== normTyp(opts.typ))) throw new JwtError('typ', 'wrong typ');
  return { alg: alg as JwsAlg, kid };
}

function signatureValid(key: VerificationKey, input: string, sig: Buffer): boolean {
  if (!keyFitsAlg(key.alg, key.publicKey)) return false;
  if (key.alg === 'ES256') {
    if (sig.length !== 64) return false;
    return crypto.verify('sha256', Buffer.from(input), { key: key.publicKey, dsaEncoding: 'ieee-p1363' }, sig);
  }
  return crypto.verify('sha256', Buffer.from(input), key.publicKey, sig);
}

function checkClaims(payload: Record<string, unknown>, opts: VerifyOptions): void {
  const leeway = Math.max(0, Math.min(opts.clockToleranceSec ?? JWT_LEEWAY_SEC, JWT_LEEWAY_SEC));
  const now = Math.floor(opts.now / 1000);
  const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  if (payload.iss !== opts.issuer) throw new JwtError('iss', 'wrong issuer');
  if (opts.audience !== undefined) {
    const aud = payload.aud;
    const ok = typeof aud === 'string' ? aud === opts.audience : Array.isArray(aud) && aud.includes(opts.audience);
    if (!ok) throw new JwtError('aud', 'wrong audience');
  }
  if (!num(payload.exp)) throw new JwtError('exp', 'exp required');
  if (!opts.allowExpired && now - leeway >= (payload.exp as number)) throw new JwtError('exp', 'expired');
  if (payload.nbf !== undefined && (!num(payload.nbf) || (payload.nbf as number) > now + leeway)) throw new JwtError('nbf', 'not yet valid');
  // a token "issued" in the future beyond the leeway comes from a wrong clock or a forger
  if (payload.iat !== undefined && (!num(payload.iat) || (payload.iat as number) > now + leeway)) throw new JwtError('iat', 'issued in the future');
}

/** A signature verified before: the exact token text, and the key that verified it. */
interface VerifiedEntry extends VerifiedJwt {
  key: VerificationKey;
}

/**
 * Signatures already verified, by the exact token text (issue 12 bench: an ES256 verification
 * costs ~85 µs, and a resource server presents the same access token at introspection or
 * userinfo on every call it serves until the token expires). Whether a signature is valid is
 * a function of the token's bytes and the key alone, so an entry stands for the verification
 * as long as the very key object that verified it is still among the keys the caller passes
 * (a key withdrawn from the JWKS, or reloaded, is a miss and the token is verified anew).
 * Everything else is checked on every call as for a new token: the header against the
 * caller's options (typ, kid), and the claims against the clock (exp, nbf, iat), issuer and
 * audience. Only successes are kept; bounded, oldest out first. Header and payload are frozen:
 * they are handed to every caller of the same token.
 */
export function createSignatureCache(maxEntries = 1024) {
  const entries = new Map<string, VerifiedEntry>();
  return {
    get: (jwt: string) => entries.get(jwt),
    set(jwt: string, entry: VerifiedEntry): void {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(jwt, entry);
    },
    get size() {
      return entries.size;
    },
  };
}

export type SignatureCache = ReturnType<typeof createSignatureCache>;

/** Shallow-frozen JSON object with its nested objects and arrays frozen too. */
function freezeJson<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) freezeJson(x);
  }
  return v;
}

/**
 * Verifies a compact JWS against `keys` and checks its claims; throws JwtError on anything wrong.
 * The payload is returned only after the signature was verified. Order: structure, header
 * (alg, key-bearing headers, crit, kid, typ), key, signature, then iss, aud, exp, nbf, iat.
 * `seen`: signatures verified before (createSignatureCache); header and claims are checked anew.
 */
export function verifyJwt(jwt: string, keys: readonly VerificationKey[], opts: VerifyOptions, seen?: SignatureCache): VerifiedJwt {
  if (typeof jwt !== 'string' || jwt.length > MAX_JWT_LENGTH) throw new JwtError('malformed', 'not a JWT');
  const hit = seen?.get(jwt);
  if (hit && keys.includes(hit.key)) {
    checkHeader(hit.header, opts);
    checkClaims(hit.payload, opts);
    return { header: hit.header, payload: hit.payload };
  }
  const parts = jwt.split('.');
  if (parts.length !== 3) throw new JwtError('malformed', 'not a compact JWS');
  const [h, p, s] = parts as [string, string, string];
  if (!h || !p || !s || !B64URL.test(h) || !B64URL.test(p) || !B64URL.test(s)) throw new JwtError('malformed', 'not base64url');
  const header = parseJson(h, 'header');
  const { alg, kid } = checkHeader(header, opts);
  // kid only ever compared for equality against our own list (never a path, never SQL)
  const candidates = keys.filter((k) => (kid === undefined ? true : k.kid === kid));
  if (candidates.length === 0) throw new JwtError('kid', 'unknown key');
  // the key's own algorithm decides: a token cannot pick another (RFC 8725 §3.1)
  const usable = candidates.filter((k) => k.alg === alg);
  if (usable.length === 0) throw new JwtError('alg', 'alg does not match the key');
  const sig = Buffer.from(s, 'base64url');
  const input = `${h}.${p}`;
  const key = usable.find((k) => signatureValid(k, input, sig));
  if (!key) throw new JwtError('signature', 'bad signature');
  const payload = parseJson(p, 'payload');
  checkClaims(payload, opts);
  if (!seen) return { header, payload };
  const verified = { header: freezeJson(header), payload: freezeJson(payload) };
  seen.set(jwt, { ...verified, key });
  return verified;
}

/** The public JWK of a key (RFC 7517): public members only, with kid, alg, use. */
export function publicJwk(kid: string, alg: JwsAlg, publicKey: KeyObject): Record<string, string> {
  const jwk = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  const pub: Record<string, string> =
    jwk.kty === 'EC' ? { kty: 'EC', crv: String(jwk.crv), x: String(jwk.x), y: String(jwk.y) } : { kty: 'RSA', n: String(jwk.n), e: String(jwk.e) };
  return { ...pub, kid, alg, use: 'sig' };
}

/** RFC 7638 JWK thumbprint (SHA-256, base64url): a kid derived from the key itself. */
export function jwkThumbprint(jwk: Record<string, string>): string {
  const members = jwk.kty === 'EC' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  return crypto.createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}

/** A new key pair for `alg` (RS256: RSA 2048, RFC 7518 §3.3). */
export function generateKeyPair(alg: JwsAlg, rsaBits = RSA_MODULUS_BITS): { privateKey: KeyObject; publicKey: KeyObject } {
  return alg === 'ES256' ? crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }) : crypto.generateKeyPairSync('rsa', { modulusLength: rsaBits });
}
