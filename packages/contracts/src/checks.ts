/**
 * SPEC §5 checks and SPEC §9 limits as plain values and functions, without zod: the console's
 * sign-in page imports them directly (zod alone would cost ~90 KiB gzip there, budget 150).
 * rules.ts builds the zod schemas from these, so both sides check the same thing.
 */

export const LIMITS = {
  usernameMin: 3,
  usernameMax: 24,
  subNameMin: 3,
  subNameMax: 50,
  keyNameMin: 4,
  keyNameMax: 20,
  descriptionMin: 4,
  descriptionMax: 50,
  logoBytes: 4 * 1024,
  iconBytes: 16 * 1024,
  mailCodeLength: 24,
  passwordMin: 6,
  /** longer input is refused before it reaches the hash. */
  passwordMaxBytes: 4096,
  domainMin: 3,
  domainMax: 255,
  domainLabelMax: 63,
  randomStringLength: 32,
  tokenLifetimeMs: 604_800_000,
  httpTimeoutMs: 6000,
  logoutReloadMs: 1500,
  chunkLoadTimeoutMs: 120_000,
  authCodeReuseMs: 5 * 60 * 1000,
  activationMs: 24 * 60 * 60 * 1000,
} as const;

/** SPEC §5: 11 digits, 1 then 3-9 (mainland China, the default region). */
export const CN_MOBILE = /^1[3-9]\d{9}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const USERNAME = /^[A-Za-z0-9_]{3,24}$/;
export const SUB_NAME = /^[A-Za-z][A-Za-z0-9_.]{2,49}$/;
export const KEY_NAME = /^[A-Za-z0-9_-]{4,20}$/;
export const MAIL_CODE = /^[A-Za-z0-9]{24}$/;
export const SERIAL_NUMBER = /^\d+$/;
const DOMAIN_LABEL = /^[A-Za-z0-9-]{1,63}$/;
const IPV4_OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
export const IPV4 = new RegExp(`^${IPV4_OCTET}(\\.${IPV4_OCTET}){3}$`);
export const CIDR = new RegExp(`^${IPV4_OCTET}(\\.${IPV4_OCTET}){3}/(3[0-2]|[12]?\\d)$`);

/** SPEC §5: 3-255 characters, labels up to 63 alphanumeric/hyphen, leading `*` allowed. */
export function isDomainName(value: string): boolean {
  if (value.length < LIMITS.domainMin || value.length > LIMITS.domainMax) return false;
  const labels = value.split('.');
  return labels.every((label, i) => (i === 0 && label === '*') || (DOMAIN_LABEL.test(label) && !label.startsWith('-') && !label.endsWith('-')));
}

/** SPEC §5: http or https with a valid host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export type PasswordStrength = 'strong' | 'medium' | 'low';

/**
 * SPEC §5: strength scored by repetition and variety (digits, lower, upper, non-word).
 * Short passwords are always `low`.
 */
export function passwordStrength(password: string): PasswordStrength {
  if (password.length < LIMITS.passwordMin) return 'low';
  let score = 0;
  // Repetition: each distinct character adds less once it repeats.
  const seen = new Map<string, number>();
  for (const ch of password) {
    const n = (seen.get(ch) ?? 0) + 1;
    seen.set(ch, n);
    score += 5 / n;
  }
  const variety = [/\d/, /[a-z]/, /[A-Z]/, /\W/].filter((re) => re.test(password)).length;
  score += (variety - 1) * 10;
  if (score >= 60) return 'strong';
  if (score >= 30) return 'medium';
  return 'low';
}

/** The default region (SPEC §5): +86. */
export const DEFAULT_COUNTRY_CODE = '86';

/** SPEC §5 for +86; elsewhere a plausible E.164 national part (the server checks fully). */
export function isMobileFor(country: string | undefined, mobile: string): boolean {
  const cc = (country ?? DEFAULT_COUNTRY_CODE).replace(/^\+/, '');
  if (cc === DEFAULT_COUNTRY_CODE) return CN_MOBILE.test(mobile);
  return /^\d{4,14}$/.test(mobile) && cc.length + mobile.length <= 15;
}

export const isEmail = (value: string) => value.length <= 254 && EMAIL.test(value);
export const isMailCode = (value: string) => MAIL_CODE.test(value);
