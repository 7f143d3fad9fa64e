/**
 * A realm's settings (SPEC §3 "Domain" field names, its email config group, and the SMS
 * provider of issue 3) as the administration API reads and changes them:
 * GET / PATCH /api/users/realms/:realmId/settings.
 *
 * Secrets are write-only. Each secret field X (email.password, sms.secret,
 * sms.accessKeySecret, sms.authToken, and issue 11's backend.appSercet,
 * backend.appCloudSecret, oauth.clientSecret) is answered as `X: ''` with `hasX`; in a
 * PATCH, X omitted keeps the stored value, `''` clears it, anything else replaces it.
 * A stored secret is kept only while it still goes where it went: changing the group's
 * destination (mail host/port/user; SMS url/endpoint/account) requires the secret again.
 */
import { z } from 'zod';
import { EMAIL, LIMITS, isHttpUrl } from './rules.js';
import {
  realmBackendInput,
  realmBackendView,
  realmOAuthInput,
  realmOAuthView,
  realmProtectionInput,
  realmProtectionView,
  zOptionalUrl,
} from './realm-groups.js';

export const realmSettingsPath = (realmId: string) => `/api/users/realms/${encodeURIComponent(realmId)}/settings`;

export const LOGIN_METHODS = ['password', 'sms', 'email', 'otp'] as const;
export const REGIST_METHODS = ['email', 'sms'] as const;
export const FIND_BACK_METHODS = ['email', 'sms'] as const;
export const CAPTCHA_POLICIES = ['always', 'after_failures'] as const;
export const BACKEND_TYPES = ['default', 'ecogloble', 'bigdata', 'aliliving'] as const;
export const SMS_PROVIDERS = ['outbox', 'webhook', 'aliyun', 'twilio'] as const;

export const REALM_SETTINGS_LIMITS = {
  templateMax: 8192,
  urlMax: 2048,
  regionsMax: 250,
  passwordMinLength: { min: LIMITS.passwordMin, max: 128 },
  /** SPEC §5: validity not less than one month; days */
  validityDays: { min: 30, max: 36_500 },
  /** issue 13: days before a certificate's end its owner is mailed; 1–3 thresholds */
  certExpiryNoticeDays: { min: 1, max: 365, maxItems: 3 },
} as const;

/** issue 13: expiry notices 30 and 7 days before a certificate ends, unless the realm sets others. */
export const CERT_EXPIRY_NOTICE_DEFAULT = [30, 7] as const;

const unique = (v: readonly string[]) => new Set(v).size === v.length;

/** SPEC §5: method lists cannot be empty; only the known methods, each once. */
const methodList = <T extends readonly [string, ...string[]]>(known: T) =>
  z.array(z.enum(known)).min(1, 'validation.required').refine(unique, 'duplicate method');

/** A country calling code, 1–3 digits (ITU-T E.164), e.g. 86, 1, 852. */
export const zRegion = z.string().regex(/^[1-9]\d{0,2}$/, 'country calling code of 1-3 digits');

/** The served copy of an uploaded logo or icon (GET, public): `/api/users/realms/<id>/branding/<kind>?v=<time>`. */
export const BRANDING_PATH = /^\/api\/users\/realms\/[a-z0-9][a-z0-9_-]{0,62}\/branding\/(logo|icon)(\?v=\d{1,16})?$/;

const PNG = [0x89, 0x50, 0x4e, 0x47];
const JPEG = [0xff, 0xd8, 0xff];
const DATA_IMAGE = /^data:image\/(png|jpe?g);base64,([A-Za-z0-9+/]+={0,2})$/;

/** Bytes a base64 text decodes to, without decoding it. */
const base64Bytes = (b64: string) => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

/**
 * SPEC §5: logo/icon jpeg, png or jpg of at most 4 KB / 16 KB. Either an https URL
 * (SECURITY.md: URL fields https only; the scheme is compared case-insensitively by URL) or
 * a data URL whose bytes really are PNG/JPEG (never SVG: A-41). '' means none.
 */
export function isImageRef(value: string, maxBytes: number): boolean {
  if (value === '') return true;
  // What an upload sets (realms.ts brandingPath): the server's own copy of checked bytes.
  if (BRANDING_PATH.test(value)) return true;
  const m = DATA_IMAGE.exec(value);
  if (m) {
    const b64 = m[2]!;
    if (b64.length % 4 !== 0 || base64Bytes(b64) > maxBytes) return false;
    let head: number[];
    try {
      head = Array.from(atob(b64.slice(0, 8)), (c) => c.charCodeAt(0));
    } catch {
      return false;
    }
    return [PNG, JPEG].some((sig) => sig.every((b, i) => head[i] === b));
  }
  if (value.length > REALM_SETTINGS_LIMITS.urlMax || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0 && !url.username && !url.password;
  } catch {
    return false;
  }
}

const zLogo = z.string().refine((v) => isImageRef(v, LIMITS.logoBytes), 'https URL, or png/jpeg data URL of at most 4 KB');
const zIcon = z.string().refine((v) => isImageRef(v, LIMITS.iconBytes), 'https URL, or png/jpeg data URL of at most 16 KB');
const zTemplate = z.string().max(REALM_SETTINGS_LIMITS.templateMax);
const zDays = z.number().int().min(REALM_SETTINGS_LIMITS.validityDays.min).max(REALM_SETTINGS_LIMITS.validityDays.max);
/** http or https (SPEC §5 "URL must be http or https"); the SSRF guard decides at send time. */
const zOutboundUrl = z.string().max(REALM_SETTINGS_LIMITS.urlMax).refine(isHttpUrl, 'validation.url');
const zToken = (max = 256) =>
  z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(max)
    .regex(/^[^\s]+$/, 'no spaces');
/** A secret as sent: '' clears; never trimmed (it is the caller's exact value). */
const zSecret = z.string().max(1024);

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV6 = /^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$/;
/** `addr@example.com` or `Name <addr@example.com>`; no CR/LF (header injection). */
const MAILBOX = new RegExp(`^(?:${EMAIL.source.slice(1, -1)}|[^<>\\r\\n]{0,100}<${EMAIL.source.slice(1, -1)}>)$`);

/** SPEC §3 email config group, as a PATCH sends it (the whole group; password as above). */
export const realmEmailInput = z.strictObject({
  host: z
    .string()
    .max(253)
    .refine((v) => HOSTNAME.test(v) || IPV6.test(v), 'host name or IP address'),
  port: z.number().int().min(1).max(65_535),
  /** implicit TLS (465); otherwise STARTTLS when the server offers it */
  secure: z.boolean().default(false),
  user: z
    .string()
    .max(254)
    .regex(/^[^\r\n]*$/)
    .optional(),
  password: zSecret.optional(),
  from: z.string().max(320).regex(MAILBOX, 'validation.email'),
});

/** The SMS provider (issue 3), as a PATCH sends it (the whole group; secrets as above). */
export const realmSmsInput = z.discriminatedUnion('provider', [
  z.strictObject({ provider: z.literal('outbox') }),
  z.strictObject({ provider: z.literal('webhook'), url: zOutboundUrl, secret: zSecret.optional() }),
  z.strictObject({
    provider: z.literal('aliyun'),
    accessKeyId: zToken(),
    accessKeySecret: zSecret.optional(),
    signName: z.string().trim().min(1, 'validation.required').max(64),
    templateCode: zToken(64),
    regionId: zToken(64).optional(),
    endpoint: zOutboundUrl.optional(),
  }),
  z
    .strictObject({
      provider: z.literal('twilio'),
      accountSid: zToken(64),
      authToken: zSecret.optional(),
      from: zToken(32).optional(),
      messagingServiceSid: zToken(64).optional(),
      endpoint: zOutboundUrl.optional(),
    })
    // Twilio needs a sender: a From number or a Messaging Service.
    .refine((v) => Boolean(v.from || v.messagingServiceSid), { message: 'from or messagingServiceSid is required', path: ['from'] }),
]);

/** SPEC §3 backend_realm_id: the realm's id at its backend. */
export const zBackendRealmId = z
  .string()
  .trim()
  .max(128)
  .regex(/^[^\s]*$/, 'validation.invalid');

/**
 * PATCH body: any subset of the fields; unknown fields are refused (1009 naming the field).
 * `email: null` / `sms: null` / `oauth: null` / `backend: null` drop the realm's own group
 * (mail and SMS: the global provider applies), `protection: null` returns to today's
 * defaults. `backend` must match `backend_type` (issue 11, realm-groups.ts): ecogloble,
 * bigdata and aliliving need theirs; `default` without one is the built-in account store.
 */
export const realmSettingsPatch = z.strictObject({
  backend_type: z.enum(BACKEND_TYPES).optional(),
  backend: realmBackendInput.nullable().optional(),
  backend_realm_id: zBackendRealmId.optional(),
  backend_regist_url: zOptionalUrl.optional(),
  oauth: realmOAuthInput.nullable().optional(),
  protection: realmProtectionInput.nullable().optional(),
  backend_support_login_method: methodList(LOGIN_METHODS).optional(),
  backend_support_regist_method: methodList(REGIST_METHODS).optional(),
  backend_support_find_back_method: methodList(FIND_BACK_METHODS).optional(),
  /** [] = every region */
  backend_support_login_regions: z.array(zRegion).max(REALM_SETTINGS_LIMITS.regionsMax).refine(unique, 'duplicate region').optional(),
  needActive: z.boolean().optional(),
  activeEmailTpl: zTemplate.optional(),
  resetEmailTpl: zTemplate.optional(),
  logo_img_url: zLogo.optional(),
  icon_img_url: zIcon.optional(),
  default_client_id: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{0,64}$/, 'client id: up to 64 letters, digits, _ . -')
    .optional(),
  accountCertValidity: zDays.optional(),
  realmMiddleCertValidity: zDays.optional(),
  certExpiryNoticeDays: z
    .array(z.number().int().min(REALM_SETTINGS_LIMITS.certExpiryNoticeDays.min).max(REALM_SETTINGS_LIMITS.certExpiryNoticeDays.max))
    .min(1, 'validation.required')
    .max(REALM_SETTINGS_LIMITS.certExpiryNoticeDays.maxItems)
    .refine((v) => new Set(v).size === v.length, 'duplicate value')
    .optional(),
  captchaPolicy: z.enum(CAPTCHA_POLICIES).optional(),
  revealMissingAccounts: z.boolean().optional(),
  passwordMinLength: z.number().int().min(REALM_SETTINGS_LIMITS.passwordMinLength.min).max(REALM_SETTINGS_LIMITS.passwordMinLength.max).optional(),
  email: realmEmailInput.nullable().optional(),
  sms: realmSmsInput.nullable().optional(),
});
export type RealmSettingsPatch = z.input<typeof realmSettingsPatch>;

// --- answers: shapes only (stored values are not re-validated on the way out) ---

/** A write-only field: always answered empty. */
const hidden = z.literal('');

export const realmEmailView = z.object({
  host: z.string(),
  port: z.number(),
  secure: z.boolean(),
  user: z.string(),
  password: hidden,
  hasPassword: z.boolean(),
  from: z.string(),
});

export const realmSmsView = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('outbox') }),
  z.object({ provider: z.literal('webhook'), url: z.string(), secret: hidden, hasSecret: z.boolean() }),
  z.object({
    provider: z.literal('aliyun'),
    accessKeyId: z.string(),
    accessKeySecret: hidden,
    hasAccessKeySecret: z.boolean(),
    signName: z.string(),
    templateCode: z.string(),
    regionId: z.string().optional(),
    endpoint: z.string().optional(),
  }),
  z.object({
    provider: z.literal('twilio'),
    accountSid: z.string(),
    authToken: hidden,
    hasAuthToken: z.boolean(),
    from: z.string().optional(),
    messagingServiceSid: z.string().optional(),
    endpoint: z.string().optional(),
  }),
]);

export const realmSettingsView = z.object({
  realmId: z.string(),
  backend_type: z.enum(BACKEND_TYPES),
  /** null: no external backend (type `default`: the built-in account store) */
  backend: realmBackendView.nullable(),
  backend_realm_id: z.string(),
  backend_regist_url: z.string(),
  /** null: no upstream OAuth configured */
  oauth: realmOAuthView.nullable(),
  /** always complete: the realm's values, or today's defaults where it set none */
  protection: realmProtectionView,
  backend_support_login_method: z.array(z.string()),
  backend_support_regist_method: z.array(z.string()),
  backend_support_find_back_method: z.array(z.string()),
  backend_support_login_regions: z.array(z.string()),
  needActive: z.boolean(),
  activeEmailTpl: z.string(),
  resetEmailTpl: z.string(),
  logo_img_url: z.string(),
  icon_img_url: z.string(),
  default_client_id: z.string(),
  accountCertValidity: z.number(),
  realmMiddleCertValidity: z.number(),
  certExpiryNoticeDays: z.array(z.number()),
  captchaPolicy: z.enum(CAPTCHA_POLICIES),
  revealMissingAccounts: z.boolean(),
  passwordMinLength: z.number(),
  /** null: the realm has no mail server of its own (global SMTP_URL, else the outbox) */
  email: realmEmailView.nullable(),
  /** null: the realm has no SMS provider of its own (global SMS_PROVIDER) */
  sms: realmSmsView.nullable(),
});
export type RealmSettingsView = z.infer<typeof realmSettingsView>;

export const realmSettingsParams = z.object({
  realmId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'realm id'),
});
