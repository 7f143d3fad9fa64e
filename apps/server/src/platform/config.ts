/**
 * Configuration from environment variables (issue 2). Every variable is listed in the
 * README with its default. A bad value stops the start with the variable's name.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

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
  webDist: string;
  logLevel: string;
  bodyLimit: number;
  trustProxy: boolean;
  /** Shared cloud header (SPEC §1), served in /project.config.json. */
  headerScriptGlobal: string;
  headerScriptChina: string;
  headerChinaHosts: string[];
  siteTitle: string;
  /** captcha policy the master realm gets on the first start (SPEC §5 default: always) */
  masterCaptchaPolicy: 'always' | 'after_failures';
  /** a console session unused this long ends before its 7-day lifetime (ASVS 7.3.1) */
  sessionIdleMs: number;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`configuration: ${variable} ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

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
function masterKey(env: Env, dataDir: string): Buffer {
  const raw = env.MASTER_KEY;
  if (raw) {
    const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length !== 32) throw new ConfigError('MASTER_KEY', 'must be 32 bytes (64 hex characters or base64)');
    return key;
  }
  const file = path.join(dataDir, 'master.key');
  if (fs.existsSync(file)) {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
    if (key.length !== 32) throw new ConfigError('MASTER_KEY', `file ${file} is not 64 hex characters`);
    return key;
  }
  const key = crypto.randomBytes(32);
  fs.writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600 });
  return key;
}

function captchaPolicy(env: Env): 'always' | 'after_failures' {
  const raw = env.MASTER_CAPTCHA_POLICY || 'always';
  if (raw !== 'always' && raw !== 'after_failures') throw new ConfigError('MASTER_CAPTCHA_POLICY', `must be always or after_failures, got "${raw}"`);
  return raw;
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
  const here = path.dirname(new URL(import.meta.url).pathname);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    publicUrl: url(env, 'PUBLIC_URL', `http://localhost:${port}`),
    dataDir,
    databaseUrl,
    redisUrl,
    adminPassword,
    masterKey: masterKey(env, dataDir),
    webDist: path.resolve(env.WEB_DIST || path.join(here, '../../../web/dist')),
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimit: int(env, 'BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    trustProxy: env.TRUST_PROXY === 'true',
    headerScriptGlobal: env.HEADER_SCRIPT_GLOBAL || '',
    headerScriptChina: env.HEADER_SCRIPT_CHINA || '',
    headerChinaHosts: (env.HEADER_CHINA_HOSTS || '.cn').split(',').map((s) => s.trim()).filter(Boolean),
    siteTitle: env.SITE_TITLE || 'umbo',
    masterCaptchaPolicy: captchaPolicy(env),
    sessionIdleMs: int(env, 'SESSION_IDLE_HOURS', 24, 1, 168) * 3_600_000,
  };
}
