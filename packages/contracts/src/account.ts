/**
 * Schemas of the signed-in user's own account (SPEC §3 "Account centre", "Security"; SPEC §2
 * settings pages; issue 3), shared by the server routes and the console forms. No body here
 * names an account: the server acts on the session's own account only.
 */
import { z } from 'zod';
import { LOCALES } from './locales.js';
import { LIMITS, zEmail, zHttpUrl, zPassword, zUsername } from './rules.js';

export { accountPaths } from './paths.js';

/** A password as typed for checking: bounded before it reaches the hash. */
export const zPasswordInput = z
  .string()
  .min(1, 'validation.required')
  .refine((v) => new TextEncoder().encode(v).length <= LIMITS.passwordMaxBytes, 'validation.password_max');

/** SPEC §3 "Account centre". Times are epoch milliseconds. */
export const accountInfo = z.object({
  /** how the account signs in: user name, or owner/subname for a service account */
  accountMark: z.string(),
  id: z.string(),
  username: z.string(),
  kind: z.enum(['person', 'service']),
  domain: z.string(),
  domainId: z.string(),
  avatar: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  lastLoginArea: z.string(),
  lastLoginTime: z.number().nullable(),
  registTime: z.number(),
  registArea: z.string(),
  updateTime: z.number(),
  otpEnabled: z.boolean(),
  forcePassword: z.boolean(),
});
export type AccountInfo = z.infer<typeof accountInfo>;

/** SPEC §5: user name 3–24, different from the current one; avatar an http(s) URL or '' to clear. */
export const updateAccountBody = z.object({
  username: zUsername.optional(),
  avatar: z.union([z.literal(''), zHttpUrl.pipe(z.string().max(1024))]).optional(),
});

/** SPEC §5: jpeg/png at most 4 KB, sent as a data URL (`data:image/png;base64,…`). */
export const avatarUploadBody = z.object({ image: z.string().min(1, 'validation.required').max(8192) });
export const avatarResult = z.object({ avatar: z.string() });

export const changeOwnPasswordBody = z.object({
  oldPassword: zPasswordInput,
  newPassword: zPassword,
});

export const sessionItem = z.object({
  id: z.string(),
  ip: z.string(),
  /** the device, as its user agent tells */
  userAgent: z.string(),
  createdAt: z.number(),
  lastSeenAt: z.number(),
  expiresAt: z.number(),
  current: z.boolean(),
});
export const sessionList = z.object({ items: z.array(sessionItem), total: z.number() });
export const sessionParams = z.object({ id: z.string().min(1).max(64) });

/** SPEC §1/§9 defaults: zh-CN, dark theme, light-blue primary colour. */
export const THEMES = ['dark', 'light'] as const;
export const accountSettings = z.object({
  language: z.enum(LOCALES),
  theme: z.enum(THEMES),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'validation.color'),
  /**
   * Security notices (account/security-notices.ts): after a password, OTP, email or phone
   * change. Unknown keys in stored preferences (the old `productEmail`) are stripped, not refused.
   */
  notifications: z.object({
    securityEmail: z.boolean(),
    securitySms: z.boolean(),
  }),
});
export type AccountSettings = z.infer<typeof accountSettings>;
export const updateAccountSettingsBody = accountSettings.extend({ notifications: accountSettings.shape.notifications.partial() }).partial();

export const otpStatus = z.object({ enabled: z.boolean(), pending: z.boolean(), recoveryCodesLeft: z.number() });
export const otpSetupBody = z.object({ password: zPasswordInput });
export const otpSetupResult = z.object({
  /** base32, for typing in by hand */
  secret: z.string(),
  /** otpauth:// key URI, rendered as a QR code by the console */
  uri: z.string(),
  expiresAt: z.number(),
});
const otpCode = z.string().regex(/^\d{6}$/, 'validation.otp');
/** SPEC §3 "first and second verify codes": two consecutive codes. */
export const otpEnableBody = z.object({ firstCode: otpCode, secondCode: otpCode });
export const otpEnableResult = z.object({ recoveryCodes: z.array(z.string()) });
/** Two consecutive codes; or, with the device lost, the password and a recovery code. */
export const otpDisableBody = z.object({
  firstCode: otpCode.optional(),
  secondCode: otpCode.optional(),
  password: zPasswordInput.optional(),
  recoveryCode: z.string().max(16).optional(),
});

/** Binding a new phone or email: a code goes to the NEW address; the password proves it is you. */
const bindTarget = z.object({
  channel: z.enum(['email', 'sms']),
  email: zEmail.optional(),
  mobile: z
    .string()
    .regex(/^\+?[\d\s-]{4,20}$/, 'validation.mobile')
    .optional(),
  country: z
    .string()
    .regex(/^\+?\d{1,3}$/, 'validation.mobile')
    .optional(),
});
export const bindCodeBody = bindTarget.extend({ password: zPasswordInput, lang: z.string().max(35).optional() });
export const bindCodeResult = z.object({ serialNo: z.string(), expiresAt: z.number(), resendAt: z.number() });
export const bindBody = bindTarget.extend({ serialNo: z.string().min(1).max(64), code: z.string().min(1, 'validation.required').max(16) });
export const unbindBody = z.object({ channel: z.enum(['email', 'sms']), password: zPasswordInput });
export const bindingResult = z.object({ email: z.string().nullable(), phone: z.string().nullable() });
