/**
 * Validation rules of SPEC §5 and limits of SPEC §9, written once and used by the server
 * (Fastify routes through the zod type provider) and the console (antd forms).
 * Each message is a phrase key under `validation` in every locale. The plain checks live in
 * checks.ts (no zod), for the light sign-in pages.
 */
import { z } from 'zod';
import { CN_MOBILE, EMAIL, isDomainName, isHttpUrl, KEY_NAME, LIMITS, MAIL_CODE, SUB_NAME, USERNAME } from './checks.js';

export * from './checks.js';

export const zUsername = z.string().regex(USERNAME, 'validation.username');
export const zMobile = z.string().regex(CN_MOBILE, 'validation.mobile');
export const zEmail = z.string().max(254).regex(EMAIL, 'validation.email');
export const zPassword = z
  .string()
  .min(LIMITS.passwordMin, 'validation.password_min')
  .refine((v) => new TextEncoder().encode(v).length <= LIMITS.passwordMaxBytes, 'validation.password_max');
export const zMailCode = z.string().regex(MAIL_CODE, 'validation.mail_code');
export const zDescription = z.string().min(LIMITS.descriptionMin, 'validation.description').max(LIMITS.descriptionMax, 'validation.description');
export const zDomainName = z.string().refine(isDomainName, 'validation.domain');
export const zHttpUrl = z.string().refine(isHttpUrl, 'validation.url');
export const zSubName = z.string().regex(SUB_NAME, 'validation.sub_name');
export const zKeyName = z.string().regex(KEY_NAME, 'validation.key_name');
