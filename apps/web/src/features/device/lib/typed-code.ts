/** The user code as the field shows it while typing (RFC 8628 §6.1): letters only, upper case, XXXX-XXXX. */
import { USER_CODE_LENGTH } from '@umbo/contracts/device';

export function asTyped(value: string): string {
  const letters = value
    .toUpperCase()
    .replace(/[^A-Z]/g, '')
    .slice(0, USER_CODE_LENGTH);
  return letters.length > 4 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}
