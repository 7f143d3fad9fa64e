/**
 * Mobile numbers (issue 3): SPEC §5's rule (11 digits, 1 then 3–9) for +86, the default
 * region; any other country code must form a valid E.164 number (libphonenumber-js).
 * Numbers are stored and compared in E.164 (`+8613812345678`).
 */
import { CN_MOBILE } from '@umbo/contracts';
import { onFirstUse } from '../platform/packages.js';

/**
 * libphonenumber-js (its metadata ~2 MB of heap for the life of the process) is loaded by the
 * first number outside +86, not at start: most realms never see one (issue 12 memory budget).
 * Its CommonJS build keeps these functions synchronous.
 */
const loadPhoneLib = onFirstUse<typeof import('libphonenumber-js')>('libphonenumber-js');
const parsePhoneNumberFromString = (text: string) => loadPhoneLib().parsePhoneNumberFromString(text);

export const DEFAULT_COUNTRY = '86';

/** E.164 form of (country calling code, national number), or undefined when invalid. */
export function normaliseMobile(mobile: string, country: string = DEFAULT_COUNTRY): string | undefined {
  // NFKC: fullwidth digits and plus signs are the same number (issue 8)
  const cc = country.normalize('NFKC').replace(/^\+/, '');
  const digits = mobile.normalize('NFKC').replace(/[\s-]/g, '');
  if (!/^\d{1,3}$/.test(cc) || !/^\+?\d{4,17}$/.test(digits)) return undefined;
  if (cc === DEFAULT_COUNTRY) {
    const national = digits.startsWith('+86') ? digits.slice(3) : digits;
    return CN_MOBILE.test(national) ? `+86${national}` : undefined;
  }
  const full = digits.startsWith('+') ? digits : `+${cc}${digits}`;
  const parsed = parsePhoneNumberFromString(full);
  if (!parsed || !parsed.isValid() || parsed.countryCallingCode !== cc) return undefined;
  return parsed.number;
}

/** The country calling code of an E.164 number we produced. */
export function countryOf(e164: string): string {
  if (e164.startsWith('+86')) return DEFAULT_COUNTRY;
  return parsePhoneNumberFromString(e164)?.countryCallingCode ?? '';
}
