/**
 * Schemas of the public sign-in, registration and recovery flows built on codes, captchas
 * and mail links (issue 3), shared by the server routes and the console forms.
 * Mobile numbers travel as (country calling code, national number); +86 is the default and
 * follows SPEC §5, other countries must form a valid E.164 number (checked by the server).
 */
import { z } from 'zod';
import { LIMITS, zEmail, zMailCode, zPassword, zUsername } from './rules.js';

export { DEFAULT_COUNTRY_CODE, isMobileFor } from './checks.js';
export { flowPaths } from './paths.js';

export const CODE_PURPOSES = ['login', 'register', 'retrieve'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

const realm = { realm_id: z.string().min(1).max(64).optional() };
const lang = { lang: z.string().max(35).optional() };
/**
 * The image captcha of the code, registration and recovery forms. Optional in the schema:
 * a realm with captchaPolicy 'after_failures' asks for it only once an address has made
 * several such requests, and a missing answer that is due is 4005 like a wrong one.
 */
const captcha = {
  captcha: z.string().max(16).optional(),
  serialNo: z.string().max(64).optional(),
};
const phone = {
  mobile: z
    .string()
    .min(1, 'validation.required')
    .regex(/^\+?[\d\s-]{4,20}$/, 'validation.mobile'),
  country: z
    .string()
    .regex(/^\+?\d{1,3}$/, 'validation.mobile')
    .optional(),
};
/** The code's format is not checked here: a malformed code counts as a wrong try. */
const code = {
  code: z.string().min(1, 'validation.required').max(16),
  serialNo: z.string().min(1, 'validation.required').max(64),
};

export const captchaQuery = z.object({ ...realm });
export const captchaResult = z.object({
  serialNo: z.string(),
  /** `data:image/png;base64,…` (120 × 40), for an <img src> */
  image: z.string(),
  expiresAt: z.number(),
});

export const authOptionsQuery = z.object({ ...realm });
export const authOptionsResult = z.object({
  realmId: z.string(),
  loginMethods: z.array(z.string()),
  registMethods: z.array(z.string()),
  findBackMethods: z.array(z.string()),
  loginRegions: z.array(z.string()),
  captchaPolicy: z.enum(['always', 'after_failures']),
  needActive: z.boolean(),
  /** the realm's logo_img_url (SPEC §3), shown on its sign-in screens; '' for none */
  logo: z.string(),
  /**
   * issue 14: where "Register an account" leads when the realm's accounts live in an
   * IT-interface backend and the realm sets backend_regist_url (http/https); absent otherwise
   */
  registUrl: z.string().optional(),
});

export const smsCodeBody = z.object({ ...realm, ...lang, ...phone, ...captcha, purpose: z.enum(CODE_PURPOSES) });
export const emailCodeBody = z.object({ ...realm, ...lang, email: zEmail, ...captcha, purpose: z.enum(CODE_PURPOSES) });
export const codeIssuedResult = z.object({
  /** the transaction this code belongs to: send it back with the code */
  serialNo: z.string(),
  expiresAt: z.number(),
  /** earliest time (ms) a new code may be asked for */
  resendAt: z.number(),
});

/** `otp`: the one-time password, when the account has it on (1503 empty, 1502 wrong) */
const otp = { otp: z.string().max(16).optional() };
export const smsLoginBody = z.object({ ...realm, ...phone, ...code, ...otp });
export const emailLoginBody = z.object({ ...realm, email: zEmail, ...code, ...otp });

export const registerEmailBody = z.object({ ...realm, ...lang, email: zEmail, password: zPassword, username: zUsername.optional(), ...captcha });
export const registerSmsBody = z.object({ ...realm, ...phone, ...code, password: zPassword, username: zUsername.optional() });
export const registerResult = z.object({
  userId: z.string(),
  username: z.string(),
  /** true: an activation mail was sent; sign-in answers 5007 until the link is followed */
  activationRequired: z.boolean(),
});

export const activateBody = z.object({ ...realm, code: zMailCode });
export const activateResult = z.object({ username: z.string() });

export const retrieveEmailBody = z.object({ ...realm, ...lang, email: zEmail, ...captcha });
/**
 * Another activation mail (issue 10, register-result screen); answered like recovery, the same
 * whether or not an unactivated account has that address. Its path lives here until
 * `flowPaths` (paths.ts) takes it.
 */
export const resendActivationBody = retrieveEmailBody;
export const resendActivationPath = '/api/users/auth/register/resend';
export const retrieveSmsBody = z.object({ ...realm, ...phone, ...code, password: zPassword });
export const resetBody = z.object({ ...realm, code: zMailCode, password: zPassword });
/** Recovery answers the same whether or not the account exists (DESIGN.md §5). */
export const acceptedResult = z.object({ accepted: z.literal(true) });

export const ftokenResult = z.object({ ftoken: z.string(), expiresAt: z.number() });
export const ftokenLoginBody = z.object({ ftoken: z.string().min(1, 'validation.required').max(160) });

export const outboxQuery = z.object({
  realm_id: z.string().max(64).optional(),
  channel: z.enum(['mail', 'sms']).optional(),
  recipient: z.string().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const outboxItem = z.object({
  id: z.string(),
  realmId: z.string(),
  channel: z.enum(['mail', 'sms']),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  createdAt: z.number(),
});
export const outboxResult = z.object({ items: z.array(outboxItem), total: z.number() });

export const MAIL_CODE_LENGTH = LIMITS.mailCodeLength;

export type SmsCodeBody = z.infer<typeof smsCodeBody>;
export type EmailCodeBody = z.infer<typeof emailCodeBody>;
export type RegisterEmailBody = z.infer<typeof registerEmailBody>;
export type RegisterSmsBody = z.infer<typeof registerSmsBody>;
export type OutboxItem = z.infer<typeof outboxItem>;
