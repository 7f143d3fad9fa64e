/**
 * The provider's security defaults (issue 12), one place, each with its source. Other parts of
 * the provider add their constants here. Durations are in seconds unless the name says Ms.
 */

/** Authorization code lifetime: "a maximum authorization code lifetime of 10 minutes is
 * RECOMMENDED" (RFC 6749 §4.1.2); we keep it short since the code travels in a URL (RFC 9700 §4.5). */
export const CODE_TTL_SEC = 60;

/** Device code lifetime (RFC 8628 §3.2 `expires_in`; its example uses 1800 s, we keep 10 minutes). */
export const DEVICE_CODE_TTL_SEC = 600;

/** Minimum polling interval a device is told (RFC 8628 §3.2: "If no value is provided, clients
 * MUST use 5 as the default"); slow_down adds 5 s (§3.5). */
export const DEVICE_POLL_INTERVAL_SEC = 5;

/** slow_down: "the interval MUST be increased by 5 seconds for this and all subsequent requests" (RFC 8628 §3.5). */
export const DEVICE_SLOW_DOWN_STEP_SEC = 5;

/** Expired device codes are kept this long before the sweep deletes them, so a late poll still
 * reads expired_token (RFC 8628 §3.5) rather than invalid_grant. */
export const DEVICE_CODE_KEEP_EXPIRED_SEC = 60 * 60;

/**
 * How long a relying party may cache the discovery document and the JWKS
 * (`Cache-Control: public, max-age=…`, OIDC Discovery §4 / RFC 8414 §3 leave it to HTTP
 * caching). Also the time two server instances may disagree about a realm's keys.
 */
export const JWKS_CACHE_MAX_AGE_SEC = 60;

/** Allowed clock skew when checking exp/nbf/iat (RFC 7519 §4.1.4 "some small leeway, usually no
 * more than a few minutes"; SECURITY.md A-47 caps it at 60 s). */
export const JWT_LEEWAY_SEC = 60;

/**
 * AS-29 publish-before-use: a new signing key is published at once but signs only after
 * relying parties that cached the previous JWKS have had time to refresh it, so the delay is
 * the JWKS cache lifetime.
 */
export const KEY_PUBLISH_BEFORE_USE_SEC = JWKS_CACHE_MAX_AGE_SEC;

/**
 * The longest lifetime of any JWT we sign (access tokens: a client's tokenExpirSec; ID tokens:
 * ID_TOKEN_TTL_SEC). A retired key stays in the JWKS this long after it stopped signing
 * (AS-29: "keep old key in JWKS for the maximum token lifetime"), so every token it signed
 * can still be verified until it expires. Client settings must not exceed it (H-clients bounds
 * tokenExpirSec by it).
 */
export const MAX_SIGNED_TOKEN_LIFETIME_SEC = 24 * 60 * 60;

/** ID token lifetime (OIDC Core §2 `exp`; short: it is a proof of authentication, not a credential). */
export const ID_TOKEN_TTL_SEC = 60 * 60;

/** Key removal delay after retirement: the longest token plus the leeway verifiers allow. */
export const KEY_RETAIN_AFTER_RETIRE_SEC = MAX_SIGNED_TOKEN_LIFETIME_SEC + JWT_LEEWAY_SEC;

/** How long one process trusts its cached copy of a realm's keys. Shorter than the JWKS cache
 * lifetime, so a key rotated through another instance is used/published here within it. */
export const KEY_CACHE_TTL_MS = 15_000;

/** RSA modulus size for RS256 keys (RFC 7518 §3.3: 2048 bits or larger). */
export const RSA_MODULUS_BITS = 2048;

/** Name of the browser SSO session cookie of the provider (per realm, path-scoped). */
export const SSO_COOKIE_NAME = 'umbo_sso';

// ─── token endpoint (H-token) ────────────────────────────────────────────────────────────

/** authCodeMulitUse: the same code, client, redirect_uri and verifier get the first answer again
 * for this long after the first redemption (SPEC §3, §9 "auth code reuse window: 5 minutes"). */
export const CODE_REUSE_WINDOW_SEC = 5 * 60;

/** Refresh token: 43 characters of [A-Za-z0-9] ≈ 256 bits (AS-12: ≤ 2^-128, SHOULD 2^-160). */
export const REFRESH_TOKEN_LENGTH = 43;

/**
 * A family's absolute end (AS-9, ASVS 10.4.8, A-15): each refresh token lives the client's
 * refreshtokenExpirSec from its issue (an idle timeout: rotation slides it), but no token of the
 * family outlives max(refreshtokenExpirSec, this) from the sign-in.
 */
export const REFRESH_FAMILY_MAX_LIFETIME_SEC = 90 * 24 * 60 * 60;

/**
 * A used refresh token presented again at the same clock instant as its first use lost a race
 * against its own client's parallel request: refused (invalid_grant) without revoking the family.
 * Any later presentation is a replay and revokes the whole family (RFC 9700 §4.14.2, AS-09).
 */
export const REFRESH_RACE_WINDOW_MS = 0;

/** private_key_jwt: an assertion may not claim a lifetime longer than this (its jti is kept until exp, RFC 7523 §3). */
export const CLIENT_ASSERTION_MAX_LIFETIME_SEC = 60 * 60;

/**
 * Failed client authentications per client (AS-13; RFC 6819 §5.1.4.2.3): 10 free, then a
 * doubling delay from 1 s, a 15-minute lock from 30 failures (doubling up to 4 h); forgotten
 * after an hour without failure. A secret of 32 random characters needs no more: the limit
 * only keeps the endpoint from being a guessing oracle.
 */
export const CLIENT_AUTH_THROTTLE = {
  freeFailures: 10,
  baseDelayMs: 1000,
  lockAfter: 30,
  lockMs: 15 * 60 * 1000,
  maxLockMs: 4 * 60 * 60 * 1000,
  windowMs: 60 * 60 * 1000,
} as const;
