/**
 * Configuration from environment variables (issue 2). Every variable is listed in the
 * README with its default. A bad value stops the start with the variable's name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import crypto from 'node:crypto';
import net from 'node:net';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** `sqlite:<file>` or a postgres:// URL */
  databaseUrl: string;
  redisUrl: string | undefined;
  adminPassword: string | undefined;
  /** 32 bytes used to derive keys for encryption at rest and keyed hashes. */
  masterKey: Buffer;
  /**
   * Where masterKey came from (issue 9): the start-up warning and the key-check refusal
   * (platform/key-check.ts) tell the operator which key this instance is using.
   */
  masterKeySource: MasterKeySource;
  webDist: string;
  logLevel: string;
  bodyLimit: number;
  /**
   * Which peers may speak for the client in X-Forwarded-* (issue 8, defect 10), already in the
   * form Fastify's `trustProxy` takes: `false`, the proxies' addresses/CIDRs, or a hop-count
   * function. Never `true`: see trustProxy() below.
   */
  trustProxy: TrustProxy;
  /** Shared cloud header (SPEC §1), served in /project.config.json. */
  headerScriptGlobal: string;
  headerScriptChina: string;
  headerChinaHosts: string[];
  siteTitle: string;
  /** captcha policy the master realm gets on the first start (SPEC §5 default: always) */
  masterCaptchaPolicy: 'always' | 'after_failures';
  /** a console session unused this long ends before its 7-day lifetime (ASVS 7.3.1) */
  sessionIdleMs: number;
  /** audit events older than this many days are swept by the job runner (issue 11) */
  auditRetentionDays: number;
  /** the operator's platform root CA (issue 13): PKI_ROOT_CERT_FILE + PKI_ROOT_KEY_FILE, both or neither */
  pkiRootImport: { certFile: string; keyFile: string } | undefined;
  /** where the Ali Living cloud API is (issue 14): ALILIVING_* */
  aliLiving: AliLivingConfig;
  /** the data centre event queue (issue 14): BIGDATA_* plus its fixed retry and batch figures */
  bigdata: BigdataOptions;
}

/** MASTER_KEY, or the file in DATA_DIR (`created`: written by this start). */
export type MasterKeySource = { kind: 'env' } | { kind: 'file'; file: string; created: boolean };

/** `(address, hop) => trusted`, as proxy-addr calls it: hop 0 is the socket's peer. */
export type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`configuration: ${variable} ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

/** An integer setting within [min, max]; unset or '' gives the fallback. */
function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(name, `must be an integer between ${min} and ${max}, got "${raw}"`);
  return n;
}

function url(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new ConfigError(name, `must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

/** Reads MASTER_KEY (64 hex chars or base64 of 32 bytes) or keeps one in DATA_DIR/master.key. */
function masterKey(env: Env, dataDir: string): { key: Buffer; source: MasterKeySource } {
  const raw = env.MASTER_KEY;
  if (raw) {
    const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length !== 32) throw new ConfigError('MASTER_KEY', 'must be 32 bytes (64 hex characters or base64)');
    return { key, source: { kind: 'env' } };
  }
  const file = path.join(dataDir, 'master.key');
  if (fs.existsSync(file)) {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
    if (key.length !== 32) throw new ConfigError('MASTER_KEY', `file ${file} is not 64 hex characters`);
    return { key, source: { kind: 'file', file, created: false } };
  }
  const key = crypto.randomBytes(32);
  fs.writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600 });
  return { key, source: { kind: 'file', file, created: true } };
}

/** proxy-addr's named ranges (loopback 127/8 ::1, linklocal, uniquelocal = RFC 1918 + fc00::/7). */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_PROXY_HOPS = 16;

/**
 * TRUST_PROXY (issue 8, defect 10). req.ip keys the per-address sign-in, captcha and
 * registration counters (SECURITY.md ), so only the proxies' own hops of
 * X-Forwarded-For may be believed: a client can put anything to the left of what the proxy
 * appends.
 * - unset, `false`, `0`: no proxy; X-Forwarded-* are ignored and req.ip is the socket's peer.
 * - `N` (1–16): N proxies in front; the client is the Nth address from the right of
 *   X-Forwarded-For. Fastify 5.12 turns a bare number into "trust nobody" (it cannot check the
 *   peer), which would put every client behind the proxy on the proxy's address and let one
 *   guesser lock everyone out of sign-in; hence the explicit hop function. Like any hop count
 *   it assumes the port is reachable only through those proxies.
 * - a comma-separated list of the proxies' addresses/CIDRs (and `loopback`, `linklocal`,
 *   `uniquelocal`): hops are believed only while they come from these addresses; preferred,
 *   since a client that reaches the port directly is not believed.
 * - `true` is refused rather than reinterpreted: it used to trust every hop (the defect), and
 *   silently reading it as 1 or as false could put the wrong address on every request behind an
 *   unknown number of proxies. The operator has to say which.
 */
function trustProxy(env: Env): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') {
    throw new ConfigError(
      'TRUST_PROXY',
      'true trusts every hop, so clients choose their own address; set the number of proxies (e.g. 1) or their addresses (e.g. 10.0.0.5,10.1.0.0/16 or loopback)',
    );
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops === 0) return false;
    if (hops > MAX_PROXY_HOPS) throw new ConfigError('TRUST_PROXY', `must be a number of proxies between 1 and ${MAX_PROXY_HOPS}, got "${raw}"`);
    return (_address, hop) => hop < hops;
  }
  const entries = raw.split(',').map((s) => s.trim());
  for (const entry of entries) {
    if (!validProxyEntry(entry)) {
      throw new ConfigError(
        'TRUST_PROXY',
        `must be false, a number of proxies, or a comma-separated list of proxy addresses/CIDRs (or loopback, linklocal, uniquelocal); "${entry}" is none of these`,
      );
    }
  }
  return entries;
}

/**
 * An address, an address/prefix, or a range name, checked here so that a typo stops the start
 * naming TRUST_PROXY instead of failing inside Fastify. A /0 prefix is refused: it is `true`
 * again. Zone ids (`fe80::1%eth0`) are not accepted, and IPv4 netmasks must be written as prefixes.
 */
function validProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = address.includes('%') ? 0 : net.isIP(address);
  if (family === 0) return false;
  if (slash === -1) return true;
  const prefix = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix)) return false;
  const bits = Number(prefix);
  return bits >= 1 && bits <= (family === 4 ? 32 : 128);
}

function captchaPolicy(env: Env): 'always' | 'after_failures' {
  const raw = env.MASTER_CAPTCHA_POLICY || 'always';
  if (raw !== 'always' && raw !== 'after_failures') throw new ConfigError('MASTER_CAPTCHA_POLICY', `must be always or after_failures, got "${raw}"`);
  return raw;
}

/**
 * apps/server: the nearest directory above this module with a package.json — src/platform/
 * under tsx, dist/ when bundled (scripts/build-server.mjs) — so WEB_DIST's default holds for both.
 */
function serverPackageDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** PKI_ROOT_CERT_FILE + PKI_ROOT_KEY_FILE (PEM): both readable, or neither set. */
function pkiRootImport(env: Env): Config['pkiRootImport'] {
  const certFile = env.PKI_ROOT_CERT_FILE || '';
  const keyFile = env.PKI_ROOT_KEY_FILE || '';
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) throw new ConfigError(certFile ? 'PKI_ROOT_KEY_FILE' : 'PKI_ROOT_CERT_FILE', 'must be set together with the other');
  if (!fs.existsSync(certFile)) throw new ConfigError('PKI_ROOT_CERT_FILE', `names a file that does not exist: ${certFile}`);
  if (!fs.existsSync(keyFile)) throw new ConfigError('PKI_ROOT_KEY_FILE', `names a file that does not exist: ${keyFile}`);
  return { certFile: path.resolve(certFile), keyFile: path.resolve(keyFile) };
}

export interface AliLivingConfig {
  baseUrl: string;
  allowPrivate: boolean;
  /** per request; a link happens after the sign-in answered, but a dead gateway must not pile up requests */
  timeoutMs: number;
}

export const ALILIVING_DEFAULT_URL = 'https://api.link.aliyun.com';

/**
 * ALILIVING_API_URL, default the Aliyun IoT API gateway. Its requests go through the guarded
 * outbound client (A-37), which refuses private, loopback and link-local targets unless
 * ALILIVING_ALLOW_PRIVATE_NETWORK=true (an on-premises stand-in, the tests' local gateway).
 * Kept as URL#toString() (not url() above): the gateway path is joined to it as before.
 */
function aliLiving(env: Env): AliLivingConfig {
  const raw = env.ALILIVING_API_URL || ALILIVING_DEFAULT_URL;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('ALILIVING_API_URL', 'must be an http(s) URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new ConfigError('ALILIVING_API_URL', 'must be an http(s) URL');
  return { baseUrl: parsed.toString(), allowPrivate: env.ALILIVING_ALLOW_PRIVATE_NETWORK === 'true', timeoutMs: 3000 };
}

/** The data centre queue's settings; retries and batching are fixed (federation/bigdata/bigdata.config.ts). */
export interface BigdataOptions {
  /** BIGDATA_ALLOW_PRIVATE_NETWORK: a data centre on a private or loopback address */
  allowPrivate: boolean;
  /** BIGDATA_POLL_MS: how often an idle queue is looked at */
  pollMs: number;
  /** BIGDATA_LEASE_MS: how long a claimed row is one process's; a killed process's row is due again after it */
  leaseMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** rows handed out per look, and sent at once (one per account at most) */
  batch: number;
  concurrency: number;
}

export const BIGDATA_DEFAULTS: BigdataOptions = {
  allowPrivate: false,
  pollMs: 1000,
  leaseMs: 30_000,
  retryBaseMs: 1000,
  retryMaxMs: 5 * 60_000,
  batch: 100,
  concurrency: 8,
};

function bigdata(env: Env): BigdataOptions {
  const flag = env.BIGDATA_ALLOW_PRIVATE_NETWORK;
  if (flag !== undefined && flag !== '' && flag !== 'true' && flag !== 'false') {
    throw new ConfigError('BIGDATA_ALLOW_PRIVATE_NETWORK', `must be true or false, got "${flag}"`);
  }
  return {
    ...BIGDATA_DEFAULTS,
    allowPrivate: flag === 'true',
    pollMs: int(env, 'BIGDATA_POLL_MS', BIGDATA_DEFAULTS.pollMs, 50, 60_000),
    // at least twice the request's own time limit (timeoutOf): a row is never re-sent while its first send may still run
    leaseMs: int(env, 'BIGDATA_LEASE_MS', BIGDATA_DEFAULTS.leaseMs, 1000, 3_600_000),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const dataDir = path.resolve(env.DATA_DIR || './data');
  fs.mkdirSync(dataDir, { recursive: true });
  const databaseUrl = env.DATABASE_URL || `sqlite:${path.join(dataDir, 'umbo.sqlite')}`;
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) throw new ConfigError('DATABASE_URL', 'must start with sqlite: or postgres://');
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if (adminPassword !== undefined && adminPassword.length < 6) throw new ConfigError('ADMIN_PASSWORD', 'must be at least 6 characters');
  const key = masterKey(env, dataDir);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    publicUrl: url(env, 'PUBLIC_URL', `http://localhost:${port}`),
    dataDir,
    databaseUrl,
    redisUrl,
    adminPassword,
    masterKey: key.key,
    masterKeySource: key.source,
    webDist: path.resolve(env.WEB_DIST || path.join(serverPackageDir(), '../web/dist')),
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimit: int(env, 'BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    trustProxy: trustProxy(env),
    headerScriptGlobal: env.HEADER_SCRIPT_GLOBAL || '',
    headerScriptChina: env.HEADER_SCRIPT_CHINA || '',
    headerChinaHosts: (env.HEADER_CHINA_HOSTS || '.cn')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    siteTitle: env.SITE_TITLE || 'umbo',
    masterCaptchaPolicy: captchaPolicy(env),
    sessionIdleMs: int(env, 'SESSION_IDLE_HOURS', 24, 1, 168) * 3_600_000,
    auditRetentionDays: int(env, 'AUDIT_RETENTION_DAYS', 180, 1, 36_500),
    pkiRootImport: pkiRootImport(env),
    aliLiving: aliLiving(env),
    bigdata: bigdata(env),
  };
}
