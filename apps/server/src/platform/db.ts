/**
 * One Kysely handle over SQLite (embedded default) or PostgreSQL (DATABASE_URL), with one
 * set of migrations for both. Portability rules: ids are text, times are integer
 * milliseconds (bigint), booleans are integers 0/1, JSON is text.
 */
import { Kysely, SqliteDialect, type Generated } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { SearchPathPostgresDialect } from './pg-introspector.js';

// int8 (bigint) arrives as a string by default; our millisecond times fit a double.
pg.types.setTypeParser(20, (v) => Number(v));

export interface RealmTable {
  id: string;
  name: string;
  description: string;
  /** JSON: login/registration methods, regions, mail, captcha policy, … (SPEC §3) */
  settings: string;
  created_at: number;
  updated_at: number;
}

export interface AccountTable {
  id: string;
  realm_id: string;
  kind: 'person' | 'service';
  owner_id: string | null;
  username: string;
  /** lower-cased username (service accounts: owner/subname) for unique lookup */
  username_norm: string;
  email: string | null;
  email_norm: string | null;
  phone: string | null;
  password_hash: string | null;
  avatar: string;
  disabled: number;
  activated: number;
  force_password: number;
  regist_area: string;
  last_login_at: number | null;
  last_login_area: string;
  created_at: number;
  updated_at: number;
}

export interface RoleTable {
  id: string;
  /** null for platform roles (admin), else the realm the role belongs to */
  realm_id: string | null;
  name: string;
  description: string;
  /** JSON: [{permissionId, actions: [...]}] */
  permissions: string;
  builtin: number;
  created_at: number;
}

export interface RoleBindingTable {
  account_id: string;
  role_id: string;
  /** realm the binding is scoped to; platform admin binds to 'master' and reaches all */
  realm_id: string;
  created_at: number;
}

export interface SessionTable {
  id: string;
  realm_id: string;
  account_id: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  revoked_at: number | null;
  ip: string;
  user_agent: string;
}

export interface JobLeaseTable {
  name: string;
  holder: string;
  lease_until: number;
  last_run_at: number | null;
}

/** 6-digit SMS/email codes, captchas and sign-in tokens when no Redis is configured (issue 3). */
export interface VerificationCodeTable {
  realm_id: string;
  purpose: string;
  /** keyed hash of the target (number, address, serial), never the target itself */
  target_hash: string;
  code_hash: string;
  serial_no: string;
  /** who the code stands for, when known (sign-in tokens) */
  subject: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** 24-character mail-link codes: activation and password reset (SPEC §5, §4). */
export interface MailLinkCodeTable {
  id: string;
  realm_id: string;
  kind: 'activate' | 'reset';
  code_hash: string;
  account_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Fixed-window counters for rate limits and daily caps when no Redis is configured. */
export interface RateCounterTable {
  key: string;
  count: number;
  window_end: number;
}

/** Messages kept by the `outbox` provider (issue 3); subject and body are encrypted at rest. */
export interface OutboxTable {
  id: string;
  realm_id: string;
  channel: 'mail' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  created_at: number;
}

/** Failed sign-in counters per realm, by account name or IP (issue 3, A-31). */
export interface LoginThrottleTable {
  realm_id: string;
  kind: 'account' | 'ip';
  /** keyed hash of the normalised user name or the IP address */
  key_hash: string;
  failures: number;
  last_failure_at: number;
  /** 0 when not blocked */
  blocked_until: number;
}

/** An account's TOTP (RFC 6238; issue 3, A-32). */
export interface AccountOtpTable {
  account_id: string;
  realm_id: string;
  enabled: number;
  /** sealed base32 secret (Secrets.encrypt) */
  secret: string | null;
  /** the last accepted time step: a step ≤ this is never accepted again */
  last_step: number;
  /** sealed secret of a setup not yet confirmed with two codes */
  pending_secret: string | null;
  pending_at: number | null;
  enabled_at: number | null;
  updated_at: number;
}

export interface OtpRecoveryCodeTable {
  id: string;
  realm_id: string;
  account_id: string;
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

/** The user's own preferences (SPEC §2 settings custom/notification), JSON. */
export interface AccountSettingsTable {
  account_id: string;
  realm_id: string;
  data: string;
  updated_at: number;
}

/** An uploaded avatar (SPEC §5: jpeg/png ≤ 4 KB), base64. */
export interface AccountAvatarTable {
  id: string;
  realm_id: string;
  account_id: string;
  mime: string;
  data: string;
  created_at: number;
}

export interface Database {
  realms: RealmTable;
  accounts: AccountTable;
  roles: RoleTable;
  role_bindings: RoleBindingTable;
  sessions: SessionTable;
  job_leases: JobLeaseTable;
  verification_codes: VerificationCodeTable;
  mail_link_codes: MailLinkCodeTable;
  rate_counters: RateCounterTable;
  outbox: OutboxTable;
  login_throttle: LoginThrottleTable;
  account_otp: AccountOtpTable;
  otp_recovery_codes: OtpRecoveryCodeTable;
  account_settings: AccountSettingsTable;
  account_avatars: AccountAvatarTable;
}

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL schema in use, when not the default */
  schema?: string;
  /** true when the database answers a trivial query */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
  /** pool figures for /metrics */
  poolStats(): { total: number; idle: number; waiting: number };
}

export interface OpenDbOptions {
  /** PostgreSQL schema to use (tests isolate suites this way) */
  schema?: string;
  poolMax?: number;
  /** SQLite: how long a writer waits for the lock before SQLITE_BUSY */
  busyTimeoutMs?: number;
}

export function openDb(url: string, opts: OpenDbOptions = {}): DbHandle {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), opts);
  return openPostgres(url, opts);
}

function openSqlite(file: string, opts: OpenDbOptions): DbHandle {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
  sqlite.pragma('synchronous = NORMAL');
  // Kysely prepares every query anew; better-sqlite3 statements are reusable, and preparing
  // is a measurable share of a sign-in, so keep the prepared ones (bounded).
  const cache = new Map<string, SQLite.Statement>();
  const database = Object.assign(Object.create(sqlite) as SQLite.Database, {
    prepare(source: string) {
      let stmt = cache.get(source);
      if (!stmt) {
        if (cache.size >= 500) cache.clear();
        stmt = sqlite.prepare(source);
        cache.set(source, stmt);
      }
      return stmt;
    },
    close: () => sqlite.close(),
  });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return {
    db,
    dialect: 'sqlite',
    async ping() {
      // Ready means writable: take and drop the write lock, waiting only briefly, so a
      // locked or read-only file fails readiness instead of hanging it.
      const previous = sqlite.pragma('busy_timeout', { simple: true }) as number;
      try {
        sqlite.pragma('busy_timeout = 200');
        sqlite.exec('BEGIN IMMEDIATE; ROLLBACK');
        return true;
      } catch {
        return false;
      } finally {
        sqlite.pragma(`busy_timeout = ${previous}`);
      }
    },
    close: () => db.destroy(),
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
  };
}

function openPostgres(url: string, opts: OpenDbOptions): DbHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolMax ?? 10,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  // A checked-out client losing its socket emits 'error' on itself; its queries reject anyway,
  // so swallow the event rather than let it become an uncaught exception.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    schema: opts.schema,
    async ping(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
        });
        await Promise.race([pool.query('select 1'), timeout]);
        return true;
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => db.destroy(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/** Errors that mean "the database is not there", rendered as 503. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (/^SQLITE_(BUSY|LOCKED|READONLY|CANTOPEN|IOERR|CORRUPT|NOTADB|FULL)/.test(code)) return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)) return true;
  // PostgreSQL classes 08 (connection), 53 (resources), 57 (operator intervention).
  if (/^(08|53|57)[0-9A-Z]{3}$/.test(code)) return true;
  const msg = typeof e.message === 'string' ? e.message : '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|database connection/i.test(msg);
}

/** A unique-constraint violation on either database. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
