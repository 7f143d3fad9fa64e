/** The console's bearer token (SPEC §3, §4): `access_token`, falling back to `token`. */
import { LIMITS } from '@umbo/contracts/checks';
import { readStored, removeStored, STORAGE_KEYS, writeStored } from './storage';

export function getToken(now = Date.now()): string | undefined {
  const token = readStored<string>(STORAGE_KEYS.token, now) ?? readStored<string>(STORAGE_KEYS.tokenFallback, now);
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}

/** Keeps the token until the server's expiry, never longer than SPEC §9's 7 days. */
export function setToken(token: string, expiresAt?: number, now = Date.now()): void {
  const cap = now + LIMITS.tokenLifetimeMs;
  writeStored(STORAGE_KEYS.token, token, Math.min(expiresAt ?? cap, cap));
  removeStored(STORAGE_KEYS.tokenFallback);
}

export function clearToken(): void {
  removeStored(STORAGE_KEYS.token);
  removeStored(STORAGE_KEYS.tokenFallback);
}
