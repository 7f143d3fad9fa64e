/** Test helpers for the issue-3 flows: realm settings, captchas, inject with an IP, outbox. */
import crypto from 'node:crypto';
import type { Harness } from '../../../test/harness.js';
import { defaultRealmSettings } from '../../../realms/realm-settings.js';
import { MASTER_REALM } from '../../../perm/perm.service.js';
import type { FlowSettings } from '../realm-policy.js';

export const randomIp = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
/** An unused +86 mobile number (SPEC §5: 1, then 3-9, 11 digits). */
export const randomMobile = () => `13${crypto.randomInt(100_000_000, 999_999_999)}`;
export const randomEmail = () => `u${crypto.randomBytes(5).toString('hex')}@example.test`;

/** Creates a realm (or replaces its settings) with the defaults plus `patch`. */
export async function putRealm(h: Harness, id: string, patch: Partial<FlowSettings> = {}): Promise<string> {
  const db = h.dbh.db;
  const settings = JSON.stringify({ ...defaultRealmSettings(), ...patch });
  const now = h.clock.now();
  const found = await db.selectFrom('realms').select('id').where('id', '=', id).executeTakeFirst();
  if (found) await db.updateTable('realms').set({ settings, updated_at: now }).where('id', '=', id).execute();
  else await db.insertInto('realms').values({ id, name: id, description: '', settings, created_at: now, updated_at: now }).execute();
  return id;
}

export const newRealmId = () => `r${crypto.randomBytes(4).toString('hex')}`;

export async function captcha(h: Harness, realmId = MASTER_REALM): Promise<{ captcha: string; serialNo: string }> {
  const c = await h.ctx.services.flows.captcha.issue(realmId, '127.0.0.1');
  return { captcha: c.answer, serialNo: c.serialNo };
}

export async function post(h: Harness, url: string, payload: object, opts: { ip?: string; headers?: Record<string, string>; token?: string } = {}) {
  const headers: Record<string, string> = { 'accept-language': 'en', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await h.app.inject({ method: 'POST', url, payload, headers, remoteAddress: opts.ip ?? randomIp() });
  return { status: res.statusCode, body: res.json() as { result: string; code: number; data?: Record<string, unknown>; msg?: string; errData?: Record<string, unknown> } };
}

export interface OutboxMessage {
  channel: 'mail' | 'sms';
  recipient: string;
  subject: string;
  body: string;
}

/** Messages the outbox kept for a recipient, newest first, once deliveries settled. */
export async function outboxFor(h: Harness, recipient: string): Promise<OutboxMessage[]> {
  const flows = h.ctx.services.flows;
  await flows.notify.settled();
  const principal = { accountId: '', realmId: MASTER_REALM, roles: [] };
  const { items } = await flows.outbox.list(principal, { recipient, limit: 100, offset: 0 });
  return items;
}

/** The 6-digit code of the newest message to a recipient. */
export async function lastCode(h: Harness, recipient: string): Promise<string> {
  const [msg] = await outboxFor(h, recipient);
  const m = /\b(\d{6})\b/.exec(msg?.body ?? '');
  if (!m) throw new Error(`no code for ${recipient}`);
  return m[1]!;
}

/** Asks for a code (with a solved captcha) and returns its serialNo and the delivered code. */
export async function smsCode(h: Harness, mobile: string, purpose: 'login' | 'register' | 'retrieve', realmId = MASTER_REALM, country?: string) {
  const res = await post(h, '/api/users/auth/sms-code', { realm_id: realmId, mobile, country, purpose, ...(await captcha(h, realmId)) });
  if (res.status !== 200) throw new Error(`sms-code: ${JSON.stringify(res.body)}`);
  return { serialNo: res.body.data!.serialNo as string, res };
}

/** The password form, with a solved captcha (SPEC §5: the form carries one). */
export async function passwordLogin(h: Harness, username: string, password: string, realmId = MASTER_REALM) {
  return post(h, '/api/users/auth/login', { username, password, realm_id: realmId, ...(await captcha(h, realmId)) });
}
