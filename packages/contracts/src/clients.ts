/**
 * OAuth clients and sub clients of a realm (SPEC §3 "Client", "Sub client", §5, §9; issue 12),
 * and OAuth records (SPEC §3 "OAuth record"), as the administration API, a developer's own API
 * and the console's forms check them.
 *
 * Three doors to the clients:
 *   - administrators: /api/users/realms/:realmId/clients…  (client.<action> in that realm)
 *   - developers:     /api/users/user/clients…             (userClient.<action>; only clients they own)
 *   - OAuth records:  /api/users/oauth/records (the user's own), /api/users/realms/:realmId/oauth/records (oauthList.<action>)
 *
 * A client's `clientId` is its public OAuth client_id, unique in its realm (sub clients share
 * that namespace). Secrets are never answered again after creation and regeneration.
 */
import { z } from 'zod';
import { CIDR, IPV4, LIMITS } from './checks.js';
import { zDescription, zHttpUrl, zSubName } from './rules.js';

export const CLIENT_LIMITS = {
  nameMax: 64,
  clientIdMin: 3,
  clientIdMax: 64,
  redirectUrisMax: 20,
  redirectUriMax: 2000,
  loginTipsMax: 500,
  sourceRangesMax: 50,
  jwksKeysMax: 10,
  /**
   * Access-token lifetime ceiling: the server keeps a retired signing key published this long
   * (apps/server/src/oauth/defaults.ts MAX_SIGNED_TOKEN_LIFETIME_SEC, AS-29); keep them equal.
   */
  tokenExpirSecMax: 24 * 60 * 60,
  /** 10 years: a refresh token family's absolute end. */
  refreshtokenExpirSecMax: 10 * 365 * 24 * 60 * 60,
  /** SPEC §9 "random string default length 32": generated ids and secrets */
  generatedLength: LIMITS.randomStringLength,
} as const;

export const GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:token-exchange',
  'urn:ietf:params:oauth:grant-type:device_code',
] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** `none` is a public client: no secret, PKCE required (RFC 9700 §2.1.1). */
export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

export const CLIENT_SCOPES = ['openid', 'profile', 'email', 'phone', 'offline_access'] as const;
export const SIGNING_ALGS = ['ES256', 'RS256'] as const;

/** Grants a public client cannot use: they need an authenticated client (RFC 6749 §4.4, RFC 8693 §2.1). */
export const CONFIDENTIAL_ONLY_GRANTS: readonly GrantType[] = ['client_credentials', 'urn:ietf:params:oauth:grant-type:token-exchange'];

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a redirect URI cannot be registered, or undefined when it can (A-03; AS-01, AS-04):
 * https, or http on a loopback host only (RFC 8252 §7.3); no other scheme (javascript:, data:,
 * custom ones), no fragment (RFC 6749 §3.1.2), no `*`, no userinfo, and already in the form a
 * URL parser writes it (lower-case scheme and host, no default port, no dot segments): the
 * authorization endpoint compares by exact string (RFC 3986 §6.2.1), so what is stored must
 * be the one spelling a browser sends.
 */
export function redirectUriProblem(value: string): string | undefined {
  if (value.length === 0 || value.length > CLIENT_LIMITS.redirectUriMax) return 'length';
  if (/[\s\u0000-\u001f\u007f\\]/.test(value)) return 'characters';
  if (value.includes('*')) return 'wildcard';
  if (value.includes('#')) return 'fragment';
  const https = value.startsWith('https://');
  if (!https && !value.startsWith('http://')) return 'scheme';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'syntax';
  }
  if (url.username || url.password || /^https?:\/\/[^/?]*@/.test(value)) return 'userinfo';
  if (!url.hostname) return 'host';
  if (!https && !LOOPBACK_HOSTS.has(url.hostname)) return 'http_not_loopback';
  // `https://app.test` is written `https://app.test/` by the parser: the one accepted difference
  if (url.href !== value && url.href !== `${value}/`) return 'not_canonical';
  return undefined;
}

export const isRedirectUri = (value: string) => redirectUriProblem(value) === undefined;

/** a redirect URI a client may register (see redirectUriProblem). */
export const redirectUriSchema = z.string().refine(isRedirectUri, 'validation.redirect_uri');

const unique = (v: readonly string[]) => new Set(v).size === v.length;

/** The public client_id: URL- and form-safe; 3-64 letters, digits, `_ . -`. */
export const CLIENT_ID = /^[A-Za-z0-9_.-]{3,64}$/;
export const zClientId = z.string().regex(CLIENT_ID, 'validation.client_id');

/** SPEC §5 "IPv4 and CIDR (mask 0-32) … CIDR input needs a mask": `a.b.c.d` (one address) or `a.b.c.d/n`. */
export const isSourceRange = (v: string) => IPV4.test(v) || CIDR.test(v);
export const zSourceRange = z.string().refine(isSourceRange, 'validation.cidr');

const zSeconds = (max: number) => z.number().int().min(1, 'validation.positive').max(max, 'validation.range');
const zOptionalHttpUrl = z.union([z.literal(''), zHttpUrl]);

/** One public JWK (RFC 7517 §4); private members are refused: only public keys are registered. */
const publicJwk = z
  .object({
    kty: z.enum(['EC', 'RSA', 'OKP']),
    kid: z.string().max(200).optional(),
    use: z.literal('sig').optional(),
    alg: z.string().max(20).optional(),
    crv: z.string().max(20).optional(),
    x: z.string().max(2000).optional(),
    y: z.string().max(2000).optional(),
    n: z.string().max(2000).optional(),
    e: z.string().max(20).optional(),
  })
  .strict();
/** private_key_jwt (RFC 7523 §2.2): the client's public keys. */
export const zClientJwks = z.object({ keys: z.array(publicJwk).min(1).max(CLIENT_LIMITS.jwksKeysMax) }).strict();
export type ClientJwks = z.infer<typeof zClientJwks>;

const uriList = (min: number) => z.array(redirectUriSchema).min(min, 'validation.required').max(CLIENT_LIMITS.redirectUrisMax).refine(unique, 'duplicate URI');

/**
 * Every field a client's form sets (SPEC §3 plus the OIDC ones). Without cross-field rules, so
 * create and update bodies derive from it; `clientRuleProblems` checks the combination.
 */
export const clientFields = z.strictObject({
  name: z.string().trim().min(1, 'validation.required').max(CLIENT_LIMITS.nameMax),
  desc: zDescription,
  /** omitted: 32 random characters (SPEC §9) */
  clientId: zClientId,
  /** SPEC §3 "auth code reusable within five minutes"; weakens security (the console warns) */
  authCodeMulitUse: z.boolean(),
  tokenExpirSec: zSeconds(CLIENT_LIMITS.tokenExpirSecMax),
  refreshtokenExpirSec: zSeconds(CLIENT_LIMITS.refreshtokenExpirSecMax),
  /** rotate the refresh token on every use (reuse then revokes the family) */
  refreshTokenRecreate: z.boolean(),
  redirectUris: uriList(1),
  postLogoutRedirectUris: uriList(0),
  loginTips: z.string().max(CLIENT_LIMITS.loginTipsMax),
  loginUrl: zOptionalHttpUrl,
  registUrl: zOptionalHttpUrl,
  grantTypes: z.array(z.enum(GRANT_TYPES)).min(1).max(GRANT_TYPES.length).refine(unique, 'duplicate grant type'),
  scopes: z.array(z.enum(CLIENT_SCOPES)).max(CLIENT_SCOPES.length).refine(unique, 'duplicate scope'),
  tokenEndpointAuthMethod: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
  /** required for private_key_jwt, refused otherwise; null clears it */
  jwks: zClientJwks.nullable(),
  consentRequired: z.boolean(),
  signingAlg: z.enum(SIGNING_ALGS),
  /** client_credentials only from these; [] = anywhere */
  sourceRanges: z.array(zSourceRange).max(CLIENT_LIMITS.sourceRangesMax).refine(unique, 'duplicate range'),
  disabled: z.boolean(),
});
export type ClientFields = z.infer<typeof clientFields>;

/** Defaults for the fields a create body may leave out. */
export const CLIENT_DEFAULTS = {
  postLogoutRedirectUris: [] as string[],
  loginTips: '',
  loginUrl: '',
  registUrl: '',
  grantTypes: ['authorization_code', 'refresh_token'] as GrantType[],
  scopes: ['openid', 'profile', 'email', 'phone', 'offline_access'] as (typeof CLIENT_SCOPES)[number][],
  tokenEndpointAuthMethod: 'client_secret_basic' as TokenEndpointAuthMethod,
  jwks: null,
  consentRequired: true,
  signingAlg: 'ES256' as (typeof SIGNING_ALGS)[number],
  sourceRanges: [] as string[],
  disabled: false,
} satisfies Partial<ClientFields>;

type RuleInput = Pick<ClientFields, 'tokenEndpointAuthMethod' | 'grantTypes' | 'jwks' | 'sourceRanges'>;

/** The combinations that cannot work, as {field, reason}: checked on create and on the merged record of an update. */
export function clientRuleProblems(c: RuleInput): { field: string; reason: string }[] {
  const out: { field: string; reason: string }[] = [];
  if (c.tokenEndpointAuthMethod === 'private_key_jwt' && !c.jwks) out.push({ field: 'jwks', reason: 'private_key_jwt needs the client’s public keys' });
  if (c.tokenEndpointAuthMethod !== 'private_key_jwt' && c.jwks) out.push({ field: 'jwks', reason: 'keys are only for private_key_jwt' });
  if (c.tokenEndpointAuthMethod === 'none') {
    const bad = c.grantTypes.filter((g) => CONFIDENTIAL_ONLY_GRANTS.includes(g));
    if (bad.length) out.push({ field: 'grantTypes', reason: `a public client cannot use ${bad.join(', ')}` });
  }
  if (c.sourceRanges.length > 0 && !c.grantTypes.includes('client_credentials'))
    out.push({ field: 'sourceRanges', reason: 'source ranges apply to client_credentials only' });
  return out;
}

const withRules = <T extends z.ZodType<RuleInput>>(schema: T) =>
  schema.superRefine((c, ctx) => {
    for (const p of clientRuleProblems(c)) ctx.addIssue({ code: 'custom', path: [p.field], message: p.reason });
  });

/** POST …/clients. Unknown fields (realmId, ownerAccountId, secretHash, parentId…) are refused (1009): A-40. */
export const clientCreateBody = withRules(
  clientFields.extend({
    clientId: zClientId.optional(),
    postLogoutRedirectUris: clientFields.shape.postLogoutRedirectUris.default(CLIENT_DEFAULTS.postLogoutRedirectUris),
    loginTips: clientFields.shape.loginTips.default(''),
    loginUrl: zOptionalHttpUrl.default(''),
    registUrl: zOptionalHttpUrl.default(''),
    grantTypes: clientFields.shape.grantTypes.default(CLIENT_DEFAULTS.grantTypes),
    scopes: clientFields.shape.scopes.default(CLIENT_DEFAULTS.scopes),
    tokenEndpointAuthMethod: clientFields.shape.tokenEndpointAuthMethod.default(CLIENT_DEFAULTS.tokenEndpointAuthMethod),
    jwks: clientFields.shape.jwks.default(null),
    consentRequired: z.boolean().default(true),
    signingAlg: clientFields.shape.signingAlg.default('ES256'),
    sourceRanges: clientFields.shape.sourceRanges.default([]),
    disabled: z.boolean().default(false),
  }),
);
export type ClientCreateBody = z.input<typeof clientCreateBody>;
export type ClientCreateInput = z.output<typeof clientCreateBody>;

/**
 * PATCH …/clients/:clientId: any field but the client id (fixed: tokens and records name it);
 * allowAuthCode / allowToken only on a sub client (1009 otherwise).
 */
export const clientUpdateBody = clientFields.omit({ clientId: true }).extend({ allowAuthCode: z.boolean(), allowToken: z.boolean() }).partial();
export type ClientUpdateBody = z.infer<typeof clientUpdateBody>;

/** POST …/clients/:clientId/sub-clients (SPEC §3 "Sub client", §5 sub name, unique sub client id). */
export const subClientCreateBody = z.strictObject({
  /** SPEC §5 "Sub name" rule */
  name: zSubName,
  desc: zDescription,
  /** omitted: 32 random characters; taken in the realm → 1071 "Sub-client ID already exists" */
  subClientId: zClientId.optional(),
  allowAuthCode: z.boolean().default(false),
  allowToken: z.boolean().default(false),
  redirectUris: clientFields.shape.redirectUris,
  tokenExpirSec: clientFields.shape.tokenExpirSec.optional(),
  refreshtokenExpirSec: clientFields.shape.refreshtokenExpirSec.optional(),
});
export type SubClientCreateBody = z.input<typeof subClientCreateBody>;
export type SubClientCreateInput = z.output<typeof subClientCreateBody>;

const zRouteId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, 'validation.invalid');
export const clientRealmParams = z.object({ realmId: zRouteId });
export const clientAdminParams = clientRealmParams.extend({ clientId: zRouteId });
export const clientOwnParams = z.object({ clientId: zRouteId });

export const clientListQuery = z.strictObject({
  /** start of the client id or of the name (case-insensitive) */
  q: z.string().trim().max(CLIENT_LIMITS.nameMax).optional(),
  /** `none`: top-level clients only, without their sub clients (the domain list) */
  parent: z.literal('none').optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ClientListQuery = z.input<typeof clientListQuery>;
export type ClientListParams = z.output<typeof clientListQuery>;

// ─── answers ─────────────────────────────────────────────────────────────────────────────

/** A client as the console shows it (detail / edit / info): every SPEC §3 field, never a secret. */
export const clientView = z.object({
  clientId: z.string(),
  realmId: z.string(),
  name: z.string(),
  desc: z.string(),
  /** the parent's clientId for a sub client, else null */
  parentClientId: z.string().nullable(),
  /** the developer who owns it (user/client), else null */
  ownerAccountId: z.string().nullable(),
  authCodeMulitUse: z.boolean(),
  tokenExpirSec: z.number(),
  refreshtokenExpirSec: z.number(),
  refreshTokenRecreate: z.boolean(),
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  loginTips: z.string(),
  loginUrl: z.string(),
  registUrl: z.string(),
  grantTypes: z.array(z.string()),
  scopes: z.array(z.string()),
  tokenEndpointAuthMethod: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
  jwks: zClientJwks.nullable(),
  consentRequired: z.boolean(),
  signingAlg: z.enum(SIGNING_ALGS),
  sourceRanges: z.array(z.string()),
  disabled: z.boolean(),
  /** sub clients only (SPEC §3) */
  allowAuthCode: z.boolean(),
  allowToken: z.boolean(),
  /** false for public (none) and private_key_jwt clients */
  hasSecret: z.boolean(),
  /** the realm's default_client_id names it */
  isDefault: z.boolean(),
  /** SPEC §3 "create time", ms since the epoch */
  createTime: z.number(),
  updateTime: z.number(),
});
export type ClientView = z.infer<typeof clientView>;

/** One row of a list. */
export const clientListItem = clientView.pick({
  clientId: true,
  realmId: true,
  name: true,
  desc: true,
  parentClientId: true,
  ownerAccountId: true,
  tokenEndpointAuthMethod: true,
  grantTypes: true,
  redirectUris: true,
  disabled: true,
  allowAuthCode: true,
  allowToken: true,
  isDefault: true,
  createTime: true,
});
export type ClientListItem = z.infer<typeof clientListItem>;

/** A top-level client with its sub clients (absent when the list was asked with parent=none). */
export const clientListEntry = clientListItem.extend({ subClients: z.array(clientListItem).optional() });
export type ClientListEntry = z.infer<typeof clientListEntry>;
export const clientListResult = z.object({ items: z.array(clientListEntry), total: z.number() });
export type ClientListResult = z.infer<typeof clientListResult>;

/** Creation answer: the secret is shown this once (null for clients without one). */
export const clientCreated = z.object({ client: clientView, clientSecret: z.string().nullable() });
export type ClientCreated = z.infer<typeof clientCreated>;

/** Regeneration answer: the new secret, shown this once; the old one stops working at once. */
export const clientSecretAnswer = z.object({ clientId: z.string(), clientSecret: z.string() });
export type ClientSecretAnswer = z.infer<typeof clientSecretAnswer>;

// ─── OAuth records (SPEC §3 "OAuth record": client name, client id, OAuth time) ──────────

export const oauthRecordItem = z.object({
  clientName: z.string(),
  clientId: z.string(),
  /** space-separated scopes granted */
  scope: z.string(),
  /** last grant, ms since the epoch */
  oauthTime: z.number(),
  /** when the user first granted it */
  createTime: z.number(),
  accountId: z.string(),
  /** the account's user name (administrators' list) */
  accountName: z.string(),
});
export type OAuthRecordItem = z.infer<typeof oauthRecordItem>;
export const oauthRecordList = z.object({ items: z.array(oauthRecordItem), total: z.number() });
export type OAuthRecordList = z.infer<typeof oauthRecordList>;

export const oauthRecordQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type OAuthRecordQuery = z.input<typeof oauthRecordQuery>;
export type OAuthRecordParams = z.output<typeof oauthRecordQuery>;
export const oauthRecordOwnParams = z.object({ clientId: zRouteId });
export const oauthRecordAdminParams = clientRealmParams.extend({ accountId: zRouteId, clientId: zRouteId });

// ─── paths ───────────────────────────────────────────────────────────────────────────────

/** Where a client call goes: a realm an administrator names, or the developer's own clients. */
export type ClientScope = { realmId: string } | 'own';
const enc = encodeURIComponent;

export const clientPaths = {
  /** GET list (?parent=none for top-level only), POST create */
  list: (scope: ClientScope) => (scope === 'own' ? '/api/users/user/clients' : `/api/users/realms/${enc(scope.realmId)}/clients`),
  /** GET, PATCH, DELETE */
  one: (scope: ClientScope, clientId: string) => `${clientPaths.list(scope)}/${enc(clientId)}`,
  /** POST: a new secret, shown once */
  secret: (scope: ClientScope, clientId: string) => `${clientPaths.one(scope, clientId)}/secret`,
  /** GET list, POST create */
  subClients: (scope: ClientScope, clientId: string) => `${clientPaths.one(scope, clientId)}/sub-clients`,
  /** the signed-in user's records: GET */
  ownRecords: '/api/users/oauth/records',
  /** DELETE: revoke the user's grant to that client (its tokens end) */
  ownRecord: (clientId: string) => `/api/users/oauth/records/${enc(clientId)}`,
  /** a realm's records: GET */
  realmRecords: (realmId: string) => `/api/users/realms/${enc(realmId)}/oauth/records`,
  /** DELETE */
  realmRecord: (realmId: string, accountId: string, clientId: string) => `/api/users/realms/${enc(realmId)}/oauth/records/${enc(accountId)}/${enc(clientId)}`,
} as const;
