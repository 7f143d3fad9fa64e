/**
 * argon2id hashing: m=19 MiB, t=2, p=1 (OWASP's floor); hashes with older, weaker
 * parameters still verify and are replaced at the next sign-in.
 */
import { hash, verify } from '@node-rs/argon2';

export const ARGON2_PARAMS = {
  // 2 = Algorithm.Argon2id (a const enum, which isolated modules cannot read)
  algorithm: 2,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMS);
}

/**
 * How many argon2id verifications this process ran, and how many of them were the dummy of
 * burnPasswordCheck: the work a sign-in does is what A-30 compares (unknown vs known names).
 */
export const passwordWork = { verifications: 0, dummies: 0 };

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  passwordWork.verifications++;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** True when a stored hash is weaker than today's parameters (or not argon2id). */
export function needsRehash(stored: string): boolean {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
  if (!m) return true;
  return Number(m[1]) < ARGON2_PARAMS.memoryCost || Number(m[2]) < ARGON2_PARAMS.timeCost;
}

let dummy: Promise<string> | undefined;
/**
 * Verifies against a fixed dummy hash so that "no such account" costs the same time as
 * "wrong password".
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  passwordWork.dummies++;
  dummy ??= hashPassword('umbo-dummy-password-for-timing');
  await verifyPassword(await dummy, password);
}
