/**
 * The device authorization grant (RFC 8628, issue 12): the user code as people type it, and
 * the console's approval calls (GET/POST /api/users/oauth/device) behind the /device page.
 */
import { z } from 'zod';

export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * RFC 8628 §6.1: base-20 consonants only (no vowels: no words; no 0/O, 1/I look-alikes),
 * 8 characters ≈ 34.5 bits, shown as XXXX-XXXX. Guessing is held back by throttling (§5.1).
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{8}$/;

/**
 * What was typed, as stored: upper case, without the dash and spaces ("input should be case
 * insensitive … punctuation stripped", RFC 8628 §6.1). undefined when it cannot be a user code.
 */
export function normaliseUserCode(input: string): string | undefined {
  const v = input.toUpperCase().replace(/[\s-]/g, '');
  return USER_CODE.test(v) ? v : undefined;
}

/** XXXX-XXXX, as the device shows it and the console repeats it. */
export function formatUserCode(code: string): string {
  return code.length === USER_CODE_LENGTH ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}

export const devicePaths = {
  device: '/api/users/oauth/device',
} as const;

/** Generous: typed by hand with dashes and spaces; the service normalises it. */
const zUserCode = z.string().trim().min(1).max(32);

export const deviceLookupQuery = z.object({ user_code: zUserCode });
export type DeviceLookupQuery = z.infer<typeof deviceLookupQuery>;

/** What the user is asked to approve. */
export const deviceRequestInfo = z.object({
  /** normalised and formatted XXXX-XXXX */
  userCode: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  realmId: z.string(),
  realmName: z.string(),
  scopes: z.array(z.string()),
  expiresAt: z.number(),
});
export type DeviceRequestInfo = z.infer<typeof deviceRequestInfo>;

export const deviceDecisionBody = z.strictObject({ user_code: zUserCode, approve: z.boolean() });
export type DeviceDecisionBody = z.infer<typeof deviceDecisionBody>;

export const deviceDecisionResult = z.object({ status: z.enum(['approved', 'denied']), clientName: z.string() });
export type DeviceDecisionResult = z.infer<typeof deviceDecisionResult>;
