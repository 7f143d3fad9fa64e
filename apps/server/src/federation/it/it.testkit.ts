/** The reference backend (examples/it-backend) as the tests' peer, and realms that use it. */
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Harness } from '../../test/harness.js';
import { createRealm } from '../../test/kit.js';

export const APP_KEY = 'it-app-key';
export const APP_SECRET = 'it-Secret-4711';
export const PREFIX = '/it';

interface RefServer extends http.Server {
  addUser(u: { username: string; password: string; email?: string; phone?: string; id?: string; disabled?: boolean }): Promise<{ userId: string }>;
}
interface RefModule {
  createServer(o: { db: string; appKey: string; appSecret: string; prefix?: string; now?: () => number }): RefServer;
}

export interface RefBackend {
  host: string;
  port: number;
  addUser: RefServer['addUser'];
  /** the last code sent to an E.164 number (a real backend would SMS it) */
  lastCode(phone: string): Promise<{ code: string; serialNo: string }>;
  /** what the backend received, passwords masked */
  requests(): Promise<{ path: string; host: string; contentType: string; fields: Record<string, unknown> }[]>;
  close(): Promise<void>;
}

// the example is plain JS outside the TypeScript project: loaded by URL, typed here
const REF_URL = new URL('../../../../../examples/it-backend/server.mjs', import.meta.url).href;

/** `nowMs`: the backend's clock (default the real one), e.g. a suite's fake clock that umbo signs with. */
export async function startReference(o: { host?: string; port?: number; appSecret?: string; nowMs?: () => number } = {}): Promise<RefBackend> {
  const mod = (await import(REF_URL)) as RefModule;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'it-ref-'));
  const nowMs = o.nowMs;
  const server = mod.createServer({
    db: path.join(dir, 'users.sqlite'),
    appKey: APP_KEY,
    appSecret: o.appSecret ?? APP_SECRET,
    prefix: PREFIX,
    ...(nowMs ? { now: () => Math.floor(nowMs() / 1000) } : {}),
  });
  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const admin = async (p: string) => {
    const res = await fetch(`http://${host}:${port}${p}`);
    return ((await res.json()) as { data: unknown }).data;
  };
  return {
    host,
    port,
    addUser: (u) => server.addUser(u),
    lastCode: (phone) => admin(`/admin/codes/last?phone=${encodeURIComponent(phone)}`) as Promise<{ code: string; serialNo: string }>,
    requests: async () => ((await admin('/admin/requests')) as { requests: [] }).requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        fs.rmSync(dir, { recursive: true, force: true });
      }),
  };
}

export type ItType = 'ecogloble' | 'default';

/** A backend group in the reference backend's paths; `extra` overrides options. */
export function itGroup(type: ItType, port: number, extra: Record<string, unknown> = {}) {
  return {
    type,
    hasHttps: false,
    useOriginID: true,
    defaultRegion: '86',
    doAuthNeedCountryCode: false,
    loginpathCountryCodeRewrite: false,
    loginpathNeedCountryCode: false,
    loginpathUseFormPost: false,
    regions: [{ region: '86', host: '127.0.0.1' }],
    port,
    path: PREFIX,
    appKey: APP_KEY,
    getUsersInfo: '/user',
    loginpath: '/login',
    getVerifyCode: '/verify-code',
    loginByVerifyCode: '/login-by-code',
    userRegistInfo: '/register',
    ...(type === 'default' ? { getUserInfoListByUcUids: '/users' } : {}),
    ...extra,
  };
}

/** A realm whose accounts live behind that backend, its secret sealed as the settings service stores it. */
export function itRealm(h: Harness, group: ReturnType<typeof itGroup>, secret = APP_SECRET): Promise<string> {
  return createRealm(h, {
    backend_type: group.type,
    backend: { ...group, appSercet: h.ctx.secrets.encrypt(secret) } as never,
    backend_realm_id: 'tenant-1',
    backend_regist_url: 'http://it.example.test/register',
  });
}

export const accountsOf = (h: Harness, realmId: string) => h.dbh.db.selectFrom('accounts').selectAll().where('realm_id', '=', realmId).execute();
