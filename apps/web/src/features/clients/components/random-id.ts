/**
 * A client or sub client id the form offers: SPEC §9's random string of 32 characters, letters
 * and digits (within the contracts' CLIENT_ID pattern), from the browser's CSPRNG without
 * modulo bias. The server generates one itself when the field is left out; offering it in the
 * form lets the administrator see and keep it before saving.
 */
import { CLIENT_LIMITS } from '@umbo/contracts/clients';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 62 × 4 = 248: bytes from 248 up are drawn again, so every character is equally likely. */
const LIMIT = 256 - (256 % ALPHABET.length);

export function randomClientId(length: number = CLIENT_LIMITS.generatedLength): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < LIMIT) out += ALPHABET[byte % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}
