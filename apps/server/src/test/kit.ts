/**
 * The one test kit of the server suites (issue 9): requests (`as(h, token).get(…)`), signing
 * in, fixtures built through the repositories (realm, person, service account, role), and the
 * captchas, delivered codes and one-time passwords the flows need. Suites run on the harness
 * (harness.ts: the real app on SQLite and PostgreSQL with a fake clock).
 */
import crypto from 'node:crypto';
import type { Account } from '../accounts/accounts.repo.js';
import { hashPassword } from '../auth/passwords.js';
import type { AppContext } from '../composition/context.js';
import { base32Decode, hotp, stepAt } from '../otp/totp.js';
import { MASTER_REALM } from '../perm/perm.service.js';
import { defaultRealmSettings, type StoredRealmSettings } from '../realms/realm-settings.js';
import type { Harness } from './harness.js';

/** The first administrator's password (harness.ts bootstraps `admin` with it). */
export const ADMIN_PASSWORD = 'Admin-Passw0rd!';
/** The password of the accounts made here, unless told otherwise. */
export const PASSWORD = 'Zebra-Quartz-71';

export const randomIp = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
export const randomName = (prefix = 'u') => `${prefix}${crypto.randomBytes(5).toString('hex')}`;
/** An unused +86 mobile number (SPEC §5: 1, then 3-9, 11 digits). */
export const randomMobile = () => `13${crypto.randomInt(100_000_000, 999_999_999)}`;
export const randomEmail = () => `u${crypto.randomBytes(5).toString('hex')}@example.test`;
export const newRealmId = () => `r${crypto.randomBytes(4).toString('hex')}`;

// ─── requests ────────────────────────────────────────────────────────────────────────────

/** SPEC §7's envelope, as the tests read it. */
export interface Envelope {
  result: string;
  code: number;
  errno?: number;
  error?: string;
  msg?: string;
  data?: any;
  errData?: Record<string, unknown>;
}

/**
 * An answer. Only `status` and `body` are enumerable, so `toEqual({ status, body })` states
 * the whole answer; headers, cookies and the raw bytes are there to read.
 */
export interface Answer {
  status: number;
  /**
   * The parsed JSON body: SPEC §7's envelope under /api, whatever else a route answers in
   * JSON (health, OpenAPI); undefined when the answer is not JSON (pages, images, metrics).
   */
  body: Envelope & Record<string, any>;
  headers: Record<string, string | string[] | number | undefined>;
  cookies: { name: string; value: string; secure?: boolean; httpOnly?: boolean; maxAge?: number; path?: string; sameSite?: string }[];
  text: string;
  raw: Buffer;
}

export interface RequestOptions {
  /** the caller's address; default a random one, so per-IP limits of one test do not meet another's */
  ip?: string;
  /** Accept-Language; default 'en', null for none (the server's default, zh-CN) */
  lang?: string | null;
  headers?: Record<string, string>;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

async function send(
  h: Pick<Harness, 'app'>,
  token: string | undefined,
  method: Method,
  url: string,
  body: object | string | undefined,
  o: RequestOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (o.lang !== null) headers['accept-language'] = o.lang ?? 'en';
  if (token) headers.authorization = `Bearer ${token}`;
  Object.assign(headers, o.headers);
  const res = await h.app.inject({ method, url, headers, remoteAddress: o.ip ?? randomIp(), ...(body !== undefined ? { payload: body } : {}) });
  let parsed: Envelope | undefined;
  if (String(res.headers['content-type'] ?? '').includes('json')) parsed = res.json();
  const answer = { status: res.statusCode, body: parsed as Answer['body'] } as Answer;
  for (const [key, value] of Object.entries({ headers: res.headers, cookies: res.cookies, text: res.body, raw: res.rawPayload })) {
    Object.defineProperty(answer, key, { value, enumerable: false });
  }
  return answer;
}

/** Requests as the holder of `token` (none: anonymous): `as(h, token).get('/api/…')`. */
export function as(h: Pick<Harness, 'app'>, token?: string) {
  return {
    get: (url: string, o?: RequestOptions) => send(h, token, 'GET', url, undefined, o),
    post: (url: string, body?: object | string, o?: RequestOptions) => send(h, token, 'POST', url, body, o),
    patch: (url: string, body?: object | string, o?: RequestOptions) => send(h, token, 'PATCH', url, body, o),
    put: (url: string, body?: object | string, o?: RequestOptions) => send(h, token, 'PUT', url, body, o),
    delete: (url: string, body?: object | string, o?: RequestOptions) => send(h, token, 'DELETE', url, body, o),
  };
}

// ─── fixtures, through the repositories ─────────────────────────────────────────────────

/** An account made here: what signing in needs, and its row as stored. */
export interface TestAccount {
  id: string;
  username: string;
  password: string;
  realmId: string;
  row: Account;
}

/** The first administrator (harness.ts bootstraps it). */
export const ADMIN = { username: 'admin', password: ADMIN_PASSWORD, realmId: MASTER_REALM } as const;

/** A new realm with the default settings plus `patch`; answers its id. */
export async function createRealm(h: Harness, patch: Partial<StoredRealmSettings> = {}, id = newRealmId()): Promise<string> {
  const now = h.clock.now();
  await h.ctx.repos.realms.insertRealm({
    id,
    name: id,
    description: '',
    settings: JSON.stringify({ ...defaultRealmSettings(), ...patch }),
    created_at: now,
    updated_at: now,
  });
  return id;
}

/** The realm's settings become the defaults plus `patch` (whatever they were before). */
export async function setRealmSettings(h: Harness, realmId: string, patch: Partial<StoredRealmSettings> = {}): Promise<void> {
  const realm = await h.ctx.repos.realms.findRealmById(realmId);
  if (!realm) throw new Error(`no realm ${realmId}`);
  await h.ctx.repos.realms.updateRealmSettings(realmId, realm.settings, JSON.stringify({ ...defaultRealmSettings(), ...patch }), h.clock.now());
}

export interface PersonOptions {
  username?: string;
  /** default PASSWORD; null: an account without a password */
  password?: string | null;
  /** a hash made elsewhere (older argon2 parameters), stored instead of hashing `password` */
  passwordHash?: string;
  realmId?: string;
  email?: string;
  /** E.164 */
  phone?: string;
  disabled?: boolean;
  activated?: boolean;
  registArea?: string;
}

export async function createPerson(h: Harness, o: PersonOptions = {}): Promise<TestAccount> {
  const password = o.password === undefined ? PASSWORD : o.password;
  const row = await h.ctx.repos.accounts.insertPerson({
    realmId: o.realmId ?? MASTER_REALM,
    username: o.username ?? randomName(),
    passwordHash: o.passwordHash ?? (password === null ? null : await hashPassword(password)),
    email: o.email,
    phone: o.phone,
    disabled: o.disabled,
    activated: o.activated,
    registArea: o.registArea,
    now: h.clock.now(),
  });
  return { id: row.id, username: row.username, password: password ?? '', realmId: row.realm_id, row };
}

/** A service account `owner/subname` (DESIGN.md §4), optionally forced to change its password. */
export async function createService(
  h: Harness,
  owner: TestAccount,
  subname: string,
  o: { password?: string; forcePassword?: boolean } = {},
): Promise<TestAccount> {
  const password = o.password ?? 'Service-Pass-93';
  const row = await h.ctx.repos.accounts.insertService({
    owner: owner.row,
    subname,
    passwordHash: await hashPassword(password),
    forcePassword: o.forcePassword,
    now: h.clock.now(),
  });
  return { id: row.id, username: row.username, password, realmId: row.realm_id, row };
}

/** Binds a role (built-in: admin, realm-admin, realm-viewer) to the account in a realm (default its own). */
export async function bindRole(h: Harness, account: Pick<TestAccount, 'id' | 'realmId'>, roleId: string, realmId = account.realmId): Promise<void> {
  await h.ctx.repos.roles.bindRole(account.id, roleId, realmId, h.clock.now());
}

// ─── signing in ─────────────────────────────────────────────────────────────────────────

/** A fresh image captcha of the realm and its answer, read in-process (SPEC §5: the password form has one). */
export async function solveCaptcha(ctx: AppContext, realmId: string = MASTER_REALM): Promise<{ captcha: string; serialNo: string }> {
  const issued = await ctx.services.captcha.issue(realmId);
  return { captcha: issued.answer, serialNo: issued.serialNo };
}

export const captcha = (h: Harness, realmId: string = MASTER_REALM) => solveCaptcha(h.ctx, realmId);

/** The password form, with a solved captcha; `extra` adds fields (otp, country) or sets the caller's IP. */
export async function signIn(
  h: Harness,
  a: { username: string; password: string; realmId?: string },
  extra: { otp?: string; country?: string; ip?: string } = {},
): Promise<Answer> {
  const { ip, ...fields } = extra;
  const realmId = a.realmId ?? MASTER_REALM;
  const body = { username: a.username, password: a.password, realm_id: realmId, ...(await captcha(h, realmId)), ...fields };
  return as(h).post('/api/users/auth/login', body, ip ? { ip } : {});
}

/** Signs in and answers the bearer token (the test fails if sign-in does). */
export async function tokenFor(h: Harness, a: { username: string; password: string; realmId?: string }): Promise<string> {
  const res = await signIn(h, a);
  if (res.status !== 200) throw new Error(`sign-in of ${a.username} failed: ${JSON.stringify(res.body)}`);
  return res.body.data.token as string;
}

/**
 * A session issued directly, without the password form: for tests about what follows a
 * sign-in, and for accounts that could not sign in yet (not activated). Answers its token.
 */
export async function issueSession(h: Harness, a: Pick<TestAccount, 'row'>): Promise<string> {
  return (await h.ctx.services.sessions.issue(a.row, { ip: '127.0.0.1', userAgent: 'test' })).token;
}

// ─── delivered messages and codes ───────────────────────────────────────────────────────

export interface OutboxMessage {
  channel: 'mail' | 'sms';
  recipient: string;
  subject: string;
  body: string;
}

/** Waits for deferred deliveries (mail, SMS, notices) to finish. */
export const settled = (h: Harness) => h.ctx.services.notify.settled();

/** Messages the outbox kept for a recipient, newest first, once deliveries settled. */
export async function outboxFor(h: Harness, recipient: string): Promise<OutboxMessage[]> {
  await settled(h);
  const { items } = await h.ctx.services.outbox.list({ accountId: '', realmId: MASTER_REALM, roles: [] }, { recipient, limit: 100, offset: 0 });
  return items;
}

/** The 6-digit code of the newest message to a recipient. */
export async function lastCode(h: Harness, recipient: string): Promise<string> {
  const [msg] = await outboxFor(h, recipient);
  const m = /\b(\d{6})\b/.exec(msg?.body ?? '');
  if (!m) throw new Error(`no code for ${recipient}`);
  return m[1]!;
}

/** Asks for an SMS code (with a solved captcha); answers its serialNo and the answer. */
export async function smsCode(h: Harness, mobile: string, purpose: 'login' | 'register' | 'retrieve', realmId: string = MASTER_REALM, country?: string) {
  const res = await as(h).post('/api/users/auth/sms-code', { realm_id: realmId, mobile, country, purpose, ...(await captcha(h, realmId)) });
  if (res.status !== 200) throw new Error(`sms-code: ${JSON.stringify(res.body)}`);
  return { serialNo: res.body.data.serialNo as string, res };
}

// ─── one-time passwords ─────────────────────────────────────────────────────────────────

/** The TOTP code of a base32 secret at a step offset from the harness clock. */
export function codeAt(h: Harness, secret: string, offsetSteps = 0): string {
  return hotp(base32Decode(secret), stepAt(h.clock.now()) + offsetSteps);
}

/** Moves the fake clock to the start of the next 30-second step. */
export function toNextStep(h: Harness): void {
  h.clock.set((stepAt(h.clock.now()) + 1) * 30_000 + 1000);
}

/** OTP on for an account: setup, then two consecutive codes. Answers the secret and recovery codes. */
export async function enableOtp(h: Harness, token: string, password: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await as(h, token).post('/api/users/account/otp/setup', { password });
  if (setup.status !== 200) throw new Error(`otp setup: ${JSON.stringify(setup.body)}`);
  const secret = setup.body.data.secret as string;
  const enable = await as(h, token).post('/api/users/account/otp/enable', { firstCode: codeAt(h, secret, -1), secondCode: codeAt(h, secret) });
  if (enable.status !== 200) throw new Error(`otp enable: ${JSON.stringify(enable.body)}`);
  // The codes used to enable are spent; later tests start in a fresh step.
  toNextStep(h);
  return { secret, recoveryCodes: enable.body.data.recoveryCodes as string[] };
}
