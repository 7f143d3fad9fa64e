/** Test helpers for sign-in hardening, OTP and the own account: accounts, requests, TOTP codes. */
import crypto from 'node:crypto';
import type { Harness } from '../test/harness.js';
import { hashPassword } from '../auth/passwords.js';
import { newId } from '../platform/crypto.js';
import { MASTER_REALM } from '../perm/perm.service.js';
import { base32Decode, hotp, stepAt } from '../otp/totp.js';

export const randomIp = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
export const randomName = (prefix = 'u') => `${prefix}${crypto.randomBytes(5).toString('hex')}`;
export const PASSWORD = 'Zebra-Quartz-71';

export interface TestAccount {
  id: string;
  username: string;
  password: string;
  realmId: string;
}

export async function createPerson(h: Harness, opts: { username?: string; password?: string; realmId?: string; passwordHash?: string; disabled?: boolean; activated?: boolean; email?: string; phone?: string } = {}): Promise<TestAccount> {
  const username = opts.username ?? randomName();
  const password = opts.password ?? PASSWORD;
  const realmId = opts.realmId ?? MASTER_REALM;
  const id = newId();
  const now = h.clock.now();
  await h.ctx.repos.accounts.insertAccount({
    id, realm_id: realmId, kind: 'person', owner_id: null, username, username_norm: username.toLowerCase(),
    email: opts.email ?? null, email_norm: opts.email?.toLowerCase() ?? null, phone: opts.phone ?? null,
    password_hash: opts.passwordHash ?? (await hashPassword(password)), avatar: '', disabled: opts.disabled ? 1 : 0,
    activated: opts.activated === false ? 0 : 1, force_password: 0, regist_area: '86', last_login_at: null, last_login_area: '',
    created_at: now, updated_at: now,
  });
  return { id, username, password, realmId };
}

/** A service account `owner/subname` (DESIGN.md §4), optionally forced to change its password. */
export async function createService(h: Harness, owner: TestAccount, subname: string, opts: { forcePassword?: boolean; password?: string } = {}): Promise<TestAccount> {
  const password = opts.password ?? 'Service-Pass-93';
  const id = newId();
  const now = h.clock.now();
  const username = `${owner.username}/${subname}`;
  await h.ctx.repos.accounts.insertAccount({
    id, realm_id: owner.realmId, kind: 'service', owner_id: owner.id, username, username_norm: username.toLowerCase(),
    email: null, email_norm: null, phone: null, password_hash: await hashPassword(password), avatar: '', disabled: 0, activated: 1,
    force_password: opts.forcePassword ? 1 : 0, regist_area: '', last_login_at: null, last_login_area: '', created_at: now, updated_at: now,
  });
  return { id, username, password, realmId: owner.realmId };
}

export interface Answer {
  status: number;
  body: { result: string; code: number; errno?: number; error?: string; msg?: string; data?: any; errData?: Record<string, unknown> };
  headers: Record<string, unknown>;
}

export async function call(h: Harness, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, opts: { token?: string; payload?: object; ip?: string; lang?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'accept-language': opts.lang ?? 'en' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await h.app.inject({ method, url, headers, remoteAddress: opts.ip ?? randomIp(), ...(opts.payload ? { payload: opts.payload } : {}) });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

export async function signIn(h: Harness, a: Pick<TestAccount, 'username' | 'realmId'> & { password: string }, extra: { otp?: string; ip?: string } = {}) {
  const { ip, ...rest } = extra;
  const captcha = await h.solveCaptcha(a.realmId);
  return call(h, 'POST', '/api/users/auth/login', { payload: { username: a.username, password: a.password, realm_id: a.realmId, ...captcha, ...rest }, ...(ip ? { ip } : {}) });
}

export async function tokenFor(h: Harness, a: TestAccount): Promise<string> {
  const res = await signIn(h, a);
  if (res.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
  return res.body.data.token as string;
}

/** The TOTP code of a base32 secret at a step offset from the harness clock. */
export function codeAt(h: Harness, secret: string, offsetSteps = 0): string {
  return hotp(base32Decode(secret), stepAt(h.clock.now()) + offsetSteps);
}

/** Moves the fake clock to the start of the next 30-second step. */
export function toNextStep(h: Harness): void {
  const now = h.clock.now();
  h.clock.set((stepAt(now) + 1) * 30_000 + 1000);
}

/** OTP on for an account: setup, then two consecutive codes. Returns secret and recovery codes. */
export async function enableOtp(h: Harness, token: string, password: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await call(h, 'POST', '/api/users/account/otp/setup', { token, payload: { password } });
  if (setup.status !== 200) throw new Error(`otp setup: ${JSON.stringify(setup.body)}`);
  const secret = setup.body.data.secret as string;
  const enable = await call(h, 'POST', '/api/users/account/otp/enable', { token, payload: { firstCode: codeAt(h, secret, -1), secondCode: codeAt(h, secret) } });
  if (enable.status !== 200) throw new Error(`otp enable: ${JSON.stringify(enable.body)}`);
  // The codes used to enable are spent; later tests start in a fresh step.
  toNextStep(h);
  return { secret, recoveryCodes: enable.body.data.recoveryCodes as string[] };
}
