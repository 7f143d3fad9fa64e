/**
 * The realm settings groups of issue 11 (SPEC §3 "Domain"): the backend of each backend type,
 * the OAuth config group and the realm's sign-in protection. Each group is sent whole in a
 * PATCH (null drops it); secrets follow realm-settings.ts: write-only, answered as '' + hasX.
 */
import { z } from 'zod';
import { isHttpUrl } from './checks.js';

export const GROUP_LIMITS = { urlMax: 2048, pathMax: 512, regionsMax: 50, tokenMax: 256, scopeMax: 512 } as const;

const HOST_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** A host name (labels ≤ 63, ≤ 253 in all) or an IPv4 address; no scheme, port or path. */
const HOST = new RegExp(`^(?=.{1,253}$)${HOST_LABEL}(?:\\.${HOST_LABEL})*$`);

const zReqToken = (max: number = GROUP_LIMITS.tokenMax) =>
  z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(max)
    .regex(/^[^\s]+$/, 'validation.invalid');
const zHost = z.string().trim().min(1, 'validation.required').max(253).regex(HOST, 'validation.host');
const zPort = z.number().int().min(1, 'validation.port').max(65_535, 'validation.port');
/** An absolute path on the backend: `/x/y`, no spaces, no scheme or host. */
const zPath = z
  .string()
  .trim()
  .min(1, 'validation.required')
  .max(GROUP_LIMITS.pathMax)
  .regex(/^\/[^\s?#]*(?:\?[^\s#]*)?$/, 'validation.path');
/** SPEC §5: URL must be http or https with a valid host. */
export const zUrl = z.string().trim().min(1, 'validation.required').max(GROUP_LIMITS.urlMax).refine(isHttpUrl, 'validation.url');
/** '' (none) or an http/https URL. */
export const zOptionalUrl = z
  .string()
  .trim()
  .max(GROUP_LIMITS.urlMax)
  .refine((v) => v === '' || isHttpUrl(v), 'validation.url');
/** A secret as sent: omitted keeps the stored one, '' clears it; never trimmed. */
const zSecret = z.string().max(1024);

// ─── backend, per backend type (SPEC §3) ────────────────────────────────────────────────

/** One region the IT interface serves and the host that serves it. */
export const backendRegion = z.strictObject({ region: zReqToken(32), host: zHost });

/** ecogloble ("IT interface") fields; `default` adds getUserInfoListByUcUids. */
const itFields = {
  hasHttps: z.boolean(),
  useOriginID: z.boolean(),
  defaultRegion: zReqToken(32),
  doAuthNeedCountryCode: z.boolean(),
  loginpathCountryCodeRewrite: z.boolean(),
  loginpathNeedCountryCode: z.boolean(),
  loginpathUseFormPost: z.boolean(),
  regions: z.array(backendRegion).min(1, 'validation.required').max(GROUP_LIMITS.regionsMax),
  port: zPort,
  path: zPath,
  appKey: zReqToken(),
  appSercet: zSecret.optional(),
  getUsersInfo: zPath,
  loginpath: zPath,
  getVerifyCode: zPath,
  loginByVerifyCode: zPath,
  userRegistInfo: zPath,
};

/** The default region must be one of the regions listed. */
const regionListed = (v: { defaultRegion: string; regions: { region: string }[] }) => v.regions.some((r) => r.region === v.defaultRegion);
const REGION_ISSUE = { message: 'validation.default_region', path: ['defaultRegion'] };

export const ecoglobleBackend = z.strictObject({ type: z.literal('ecogloble'), ...itFields }).refine(regionListed, REGION_ISSUE);
export const defaultBackend = z.strictObject({ type: z.literal('default'), ...itFields, getUserInfoListByUcUids: zPath }).refine(regionListed, REGION_ISSUE);
export const bigdataBackend = z.strictObject({
  type: z.literal('bigdata'),
  /** true: plain http; false: https */
  ishttp: z.boolean(),
  host: zHost,
  port: zPort,
  path: zPath,
  category: zReqToken(64),
});
export const alilivingBackend = z.strictObject({
  type: z.literal('aliliving'),
  enable: z.boolean(),
  appCloudKey: zReqToken(),
  appCloudSecret: zSecret.optional(),
  projectRes: zReqToken(),
  appKey: zReqToken(),
});

export const realmBackendInput = z.discriminatedUnion('type', [ecoglobleBackend, defaultBackend, bigdataBackend, alilivingBackend]);
export type RealmBackendInput = z.input<typeof realmBackendInput>;

// ─── OAuth config group (SPEC §3; the sign-in through it is the federation issue) ─────────

export const realmOAuthInput = z
  .strictObject({
    isOIDC: z.boolean(),
    clientID: zReqToken(),
    clientSecret: zSecret.optional(),
    loginEndpoint: zUrl,
    tokenEndpoint: zUrl,
    /** required for OIDC: the upstream's discovery document */
    oidcWellknowEndpoint: zOptionalUrl,
    /** space-separated scopes */
    accessTokenScope: z
      .string()
      .trim()
      .max(GROUP_LIMITS.scopeMax)
      .regex(/^[\x21\x23-\x5B\x5D-\x7E]*(?: [\x21\x23-\x5B\x5D-\x7E]+)*$/, 'validation.scope'),
    redirectURIOverwrite: z.boolean(),
    redirectURI: zOptionalUrl,
    loginURI: zOptionalUrl,
    /** issue 14: the "Sign in with …" button's name ('' or absent: the upstream's host) */
    displayName: z.string().trim().max(64).optional(),
    /** issue 14: the button's icon, an https URL ('' or absent: none) */
    iconUrl: z
      .string()
      .trim()
      .max(GROUP_LIMITS.urlMax)
      .refine((v) => v === '' || /^https:\/\/[^\s]+$/.test(v), 'validation.url')
      .optional(),
    /** issue 14: link an upstream identity to an existing account by e-mail, only when the upstream says email_verified (off by default) */
    linkVerifiedEmail: z.boolean().optional(),
  })
  .refine((v) => !v.isOIDC || v.oidcWellknowEndpoint !== '', { message: 'validation.required', path: ['oidcWellknowEndpoint'] })
  .refine((v) => !v.redirectURIOverwrite || v.redirectURI !== '', { message: 'validation.required', path: ['redirectURI'] });
export type RealmOAuthInput = z.input<typeof realmOAuthInput>;

// ─── sign-in protection (README "Security"; auth/throttle/defaults.ts) ────────────────────

/**
 * Today's budgets (README "Security"): the server's throttle, code and captcha defaults are
 * built from these, so the form shows exactly what applies when a realm sets nothing.
 */
export const PROTECTION_DEFAULTS = {
  account: { freeFailures: 3, delaySeconds: 1, lockAfter: 10, lockMinutes: 15, maxLockMinutes: 60, windowMinutes: 24 * 60 },
  ip: { freeFailures: 20, delaySeconds: 1, lockAfter: 100, lockMinutes: 15, maxLockMinutes: 60, windowMinutes: 60 },
  codeMaxAttempts: 5,
  captchaAfterFailures: 3,
  captchaAfterFormRequests: 3,
} as const;

/**
 * Bounds: no value turns protection off. A lock always comes (lockAfter is finite and above
 * the free failures), it lasts at least a minute, a counter remembers at least 15 minutes,
 * and a code takes at most 10 wrong tries.
 */
export const PROTECTION_BOUNDS = {
  account: {
    freeFailures: [1, 10],
    delaySeconds: [1, 60],
    lockAfter: [2, 50],
    lockMinutes: [1, 1440],
    maxLockMinutes: [1, 10_080],
    windowMinutes: [15, 10_080],
  },
  ip: { freeFailures: [1, 200], delaySeconds: [1, 60], lockAfter: [2, 1000], lockMinutes: [1, 1440], maxLockMinutes: [1, 10_080], windowMinutes: [15, 10_080] },
  codeMaxAttempts: [1, 10],
  captchaAfterFailures: [1, 10],
  captchaAfterFormRequests: [1, 20],
} as const;

const zInt = ([min, max]: readonly [number, number]) => z.number().int().min(min, 'validation.range').max(max, 'validation.range');

const counter = (b: (typeof PROTECTION_BOUNDS)['account' | 'ip']) =>
  z
    .strictObject({
      freeFailures: zInt(b.freeFailures),
      delaySeconds: zInt(b.delaySeconds),
      lockAfter: zInt(b.lockAfter),
      lockMinutes: zInt(b.lockMinutes),
      maxLockMinutes: zInt(b.maxLockMinutes),
      windowMinutes: zInt(b.windowMinutes),
    })
    .refine((v) => v.lockAfter > v.freeFailures, { message: 'validation.lock_after', path: ['lockAfter'] })
    .refine((v) => v.maxLockMinutes >= v.lockMinutes, { message: 'validation.max_lock', path: ['maxLockMinutes'] });

export const realmProtectionInput = z.strictObject({
  account: counter(PROTECTION_BOUNDS.account),
  ip: counter(PROTECTION_BOUNDS.ip),
  codeMaxAttempts: zInt(PROTECTION_BOUNDS.codeMaxAttempts),
  captchaAfterFailures: zInt(PROTECTION_BOUNDS.captchaAfterFailures),
  captchaAfterFormRequests: zInt(PROTECTION_BOUNDS.captchaAfterFormRequests),
});
export type RealmProtection = z.output<typeof realmProtectionInput>;

// ─── answers: secrets as '' + hasX ────────────────────────────────────────────────────────

const hidden = z.literal('');
const itView = {
  ...itFields,
  regions: z.array(z.object({ region: z.string(), host: z.string() })),
  defaultRegion: z.string(),
  appKey: z.string(),
  port: z.number(),
  path: z.string(),
  getUsersInfo: z.string(),
  loginpath: z.string(),
  getVerifyCode: z.string(),
  loginByVerifyCode: z.string(),
  userRegistInfo: z.string(),
  appSercet: hidden,
  hasAppSercet: z.boolean(),
};
export const realmBackendView = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ecogloble'), ...itView }),
  z.object({ type: z.literal('default'), ...itView, getUserInfoListByUcUids: z.string() }),
  z.object({ type: z.literal('bigdata'), ishttp: z.boolean(), host: z.string(), port: z.number(), path: z.string(), category: z.string() }),
  z.object({
    type: z.literal('aliliving'),
    enable: z.boolean(),
    appCloudKey: z.string(),
    appCloudSecret: hidden,
    hasAppCloudSecret: z.boolean(),
    projectRes: z.string(),
    appKey: z.string(),
  }),
]);
export type RealmBackendView = z.infer<typeof realmBackendView>;

export const realmOAuthView = z.object({
  isOIDC: z.boolean(),
  clientID: z.string(),
  clientSecret: hidden,
  hasClientSecret: z.boolean(),
  loginEndpoint: z.string(),
  tokenEndpoint: z.string(),
  oidcWellknowEndpoint: z.string(),
  accessTokenScope: z.string(),
  redirectURIOverwrite: z.boolean(),
  redirectURI: z.string(),
  loginURI: z.string(),
  displayName: z.string().optional(),
  iconUrl: z.string().optional(),
  linkVerifiedEmail: z.boolean().optional(),
});
export type RealmOAuthView = z.infer<typeof realmOAuthView>;

export const realmProtectionView = z.object({
  account: z.object({
    freeFailures: z.number(),
    delaySeconds: z.number(),
    lockAfter: z.number(),
    lockMinutes: z.number(),
    maxLockMinutes: z.number(),
    windowMinutes: z.number(),
  }),
  ip: z.object({
    freeFailures: z.number(),
    delaySeconds: z.number(),
    lockAfter: z.number(),
    lockMinutes: z.number(),
    maxLockMinutes: z.number(),
    windowMinutes: z.number(),
  }),
  codeMaxAttempts: z.number(),
  captchaAfterFailures: z.number(),
  captchaAfterFormRequests: z.number(),
});
