/** Helpers of the realm suites (issue 11): valid groups of each backend type, raw rows, audit rows. */
import crypto from 'node:crypto';
import type { Harness } from '../test/harness.js';
import { as, bindRole, createPerson, newRealmId, tokenFor } from '../test/kit.js';

export const realmsUrl = '/api/users/realms';
export const realmUrl = (id: string) => `/api/users/realms/${id}`;
export const settingsUrl = (id: string) => `/api/users/realms/${id}/settings`;

const it = {
  hasHttps: true,
  useOriginID: false,
  defaultRegion: 'cn',
  doAuthNeedCountryCode: true,
  loginpathCountryCodeRewrite: false,
  loginpathNeedCountryCode: true,
  loginpathUseFormPost: false,
};
const paths = {
  path: '/api',
  getUsersInfo: '/users/info',
  loginpath: '/login',
  getVerifyCode: '/code',
  loginByVerifyCode: '/login/code',
  userRegistInfo: '/register',
};

/** A complete, valid backend group of each type (secrets included). */
export const BACKENDS = {
  ecogloble: {
    type: 'ecogloble',
    ...it,
    regions: [{ region: 'cn', host: 'it.example.cn' }],
    port: 443,
    appKey: 'app-key-1',
    appSercet: 'eco-Secret-991',
    ...paths,
  },
  default: {
    type: 'default',
    ...it,
    regions: [{ region: 'cn', host: 'it.example.cn' }],
    port: 8443,
    appKey: 'app-key-2',
    appSercet: 'def-Secret-992',
    ...paths,
    getUserInfoListByUcUids: '/users/by-ids',
  },
  bigdata: { type: 'bigdata', ishttp: false, host: 'bigdata.example.com', port: 9000, path: '/dc', category: 'robots' },
  aliliving: { type: 'aliliving', enable: true, appCloudKey: 'cloud-key', appCloudSecret: 'ali-Secret-993', projectRes: 'a123', appKey: 'living-key' },
} as const;

/** What an external backend needs besides its group (SPEC §5). */
export const BACKEND_EXTRAS = { backend_realm_id: 'tenant-7', backend_regist_url: 'https://it.example.cn/register' };

export const OAUTH = {
  isOIDC: true,
  clientID: 'umbo-client',
  clientSecret: 'oauth-Secret-994',
  loginEndpoint: 'https://idp.example.com/authorize',
  tokenEndpoint: 'https://idp.example.com/token',
  oidcWellknowEndpoint: 'https://idp.example.com/.well-known/openid-configuration',
  accessTokenScope: 'openid profile',
  redirectURIOverwrite: false,
  redirectURI: '',
  loginURI: '',
};

export const SECRET_VALUES = ['eco-Secret-991', 'def-Secret-992', 'ali-Secret-993', 'oauth-Secret-994'];

export const newDomain = () => `${crypto.randomBytes(4).toString('hex')}.example.com`;

/** A create body: a fresh id, domain and description, plus `extra`. */
export const createBody = (extra: Record<string, unknown> = {}) => ({ realmId: newRealmId(), domain: newDomain(), description: 'a test domain', ...extra });

/** Creates a realm through the API as `token`; answers its id (the test fails if it is refused). */
export async function apiRealm(h: Harness, token: string, extra: Record<string, unknown> = {}): Promise<string> {
  const body = createBody(extra);
  const res = await as(h, token).post(realmsUrl, body);
  if (res.status !== 200) throw new Error(`create realm: ${JSON.stringify(res.body)}`);
  return body.realmId;
}

export const rawRealm = (h: Harness, id: string) => h.dbh.db.selectFrom('realms').selectAll().where('id', '=', id).executeTakeFirst();

export const auditRows = (h: Harness, realmId: string) =>
  h.dbh.db.selectFrom('audit_events').selectAll().where('realm_id', '=', realmId).orderBy('at').orderBy('id').execute();

/** An account of `realmId` holding `role` there, and its token. */
export async function holder(h: Harness, realmId: string, role?: 'realm-admin' | 'realm-viewer' | 'admin') {
  const person = await createPerson(h, { realmId });
  if (role) await bindRole(h, person, role, realmId);
  return { person, token: await tokenFor(h, person) };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Bytes that start like a PNG, `n` in all. */
export const pngBytes = (n: number) => Buffer.concat([PNG, crypto.randomBytes(n - PNG.length)]);
export const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;
