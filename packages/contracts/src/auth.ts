/** Schemas of the sign-in calls, shared by the server routes and the console forms. */
import { z } from 'zod';
import { LIMITS, zPassword } from './rules.js';

export const loginBody = z.object({
  username: z.string().min(1, 'validation.required').max(120),
  password: z
    .string()
    .min(1, 'validation.required')
    .refine((v) => new TextEncoder().encode(v).length <= LIMITS.passwordMaxBytes, 'validation.password_max'),
  realm_id: z.string().max(64).optional(),
  captcha: z.string().max(16).optional(),
  serialNo: z.string().max(64).optional(),
  otp: z.string().max(16).optional(),
  /** from a 1503/1502 answer: stands in for a second captcha in the OTP step of the same attempt */
  otpTicket: z.string().max(64).optional(),
  /** login region, country calling code (SPEC §3 login session state `country`) */
  country: z
    .string()
    .regex(/^\+?\d{1,3}$/, 'validation.mobile')
    .optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

export const loginResult = z.object({
  token: z.string(),
  expiresAt: z.number(),
  userId: z.string(),
  realmId: z.string(),
  /** SPEC §3 force_password: only a password change (and logout, user info) works until done */
  forcePassword: z.boolean(),
});
export type LoginResult = z.infer<typeof loginResult>;

export const changePasswordBody = z.object({
  oldPassword: z.string().min(1, 'validation.required'),
  newPassword: zPassword,
});
