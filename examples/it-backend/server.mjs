#!/usr/bin/env node
// Reference IT-interface backend (docs/it-interface.md): the contract over its own SQLite users.
//   node examples/it-backend/server.mjs --port 4100 --db /tmp/it.sqlite --app-key k --app-secret s --seed alice:Secret-1
import crypto from 'node:crypto';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { verifySignature } from './signature.mjs';

export const PATHS = {
  login: '/login',
  getVerifyCode: '/verify-code',
  loginByVerifyCode: '/login-by-code',
  userRegistInfo: '/register',
  getUsersInfo: '/user',
  getUserInfoListByUcUids: '/users',
};
const CODES = { ok: 0, badCredentials: 10, userExists: 11, notFound: 12, badRequest: 20 };
const MAX_BODY = 64 * 1024;
const CODE_TTL_SECONDS = 300;
// a code takes at most this many wrong tries, then it is dead (6 digits are guessable otherwise)
const CODE_MAX_TRIES = 5;

// scrypt's cost N: 2^14 (Node's default) unless --hash-cost says otherwise (benches, demos)
const scrypt = (password, salt, N) =>
  new Promise((res, rej) => crypto.scrypt(password, salt, 32, { N, maxmem: 256 * N * 8 + 1024 * 1024 }, (e, k) => (e ? rej(e) : res(k))));
async function hashPassword(password, N) {
  const salt = crypto.randomBytes(16);
  return `${salt.toString('hex')}:${(await scrypt(password, salt, N)).toString('hex')}`;
}
async function checkPassword(stored, password, N) {
  // an unknown account costs the same scrypt as a known one (no enumeration by timing)
  const [salt, hash] = (stored ?? `${'00'.repeat(16)}:${'00'.repeat(32)}`).split(':');
  const got = await scrypt(password, Buffer.from(salt, 'hex'), N);
  return crypto.timingSafeEqual(got, Buffer.from(hash, 'hex')) && stored !== null;
}

function openStore(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(`
    create table if not exists users (id text primary key, username text unique not null, email text unique, phone text unique,
      password_hash text not null, disabled integer not null default 0);
    create table if not exists codes (serial_no text primary key, phone text not null, code text not null, purpose text not null, expires_at integer not null);
    create table if not exists nonces (nonce text primary key, expires_at integer not null);
    create index if not exists nonces_expiry on nonces (expires_at);`);
  // a store made before codes counted their wrong tries
  const columns = db.prepare('pragma table_info(codes)').all();
  if (!columns.some((c) => c.name === 'tries')) db.exec('alter table codes add column tries integer not null default 0');
  return db;
}

const view = (u) => u && { userId: u.id, username: u.username, email: u.email, phone: u.phone, disabled: u.disabled === 1 };

/** E.164 from the request's phone fields: `phone` alone in E.164, or national `phone` + `countryCode`. */
function e164Of(f) {
  const phone = String(f.phone ?? '');
  if (phone.startsWith('+')) return /^\+\d{5,16}$/.test(phone) ? phone : null;
  if (!f.countryCode || !/^\d{1,4}$/.test(f.countryCode) || !/^\d{4,15}$/.test(phone)) return null;
  return `+${f.countryCode}${phone}`;
}

export function createServer(opts) {
  const N = 2 ** (opts.hashCost ?? 14);
  const db = openStore(opts.db);
  // --delay-ms: every contract answer waits this long, as a remote user system would (benches)
  const delay = opts.delayMs > 0 ? () => new Promise((r) => setTimeout(r, opts.delayMs)) : () => undefined;
  const now = opts.now ?? (() => Math.floor(Date.now() / 1000));
  const last = [];
  const q = {
    byAccount: db.prepare('select * from users where username = ? or email = ? or phone = ?'),
    byPhone: db.prepare('select * from users where phone = ?'),
    byId: db.prepare('select * from users where id = ?'),
    insertUser: db.prepare('insert into users (id, username, email, phone, password_hash, disabled) values (?, ?, ?, ?, ?, ?)'),
    insertCode: db.prepare('insert into codes (serial_no, phone, code, purpose, expires_at) values (?, ?, ?, ?, ?)'),
    takeCode: db.prepare(`delete from codes where serial_no = ? and phone = ? and code = ? and purpose = ? and expires_at >= ? and tries < ${CODE_MAX_TRIES}`),
    wrongTry: db.prepare('update codes set tries = tries + 1 where serial_no = ? and phone = ? and purpose = ?'),
    lastCode: db.prepare('select * from codes where phone = ? order by rowid desc limit 1'),
    insertNonce: db.prepare('insert or ignore into nonces (nonce, expires_at) values (?, ?)'),
    pruneNonces: db.prepare('delete from nonces where expires_at < ?'),
  };
  // Expired nonces go at most once a second, through their index: a prune on every request
  // walked the whole table (5 minutes of requests) each time, and was a write of its own.
  let prunedAt = -1;
  const seenNonce = (nonce, expiresAt) => {
    const t = now();
    if (t !== prunedAt) {
      q.pruneNonces.run(t);
      prunedAt = t;
    }
    return q.insertNonce.run(nonce, expiresAt).changes === 0;
  };

  /**
   * Spends the code when it is right, counts a wrong try otherwise. better-sqlite3 is synchronous
   * and nothing awaits in between, so parallel requests cannot both spend one code or pass the limit.
   */
  const takeCode = (serialNo, phone, code, purpose) => {
    if (q.takeCode.run(serialNo, phone, code, purpose, now()).changes === 1) return true;
    q.wrongTry.run(serialNo, phone, purpose);
    return false;
  };

  async function addUser(u) {
    const id = u.id ?? `it${crypto.randomBytes(6).toString('hex')}`;
    q.insertUser.run(id, u.username, u.email ?? null, u.phone ?? null, await hashPassword(u.password, N), u.disabled ? 1 : 0);
    return view(q.byId.get(id));
  }

  const handlers = {
    async [PATHS.login](f) {
      const account = String(f.account ?? '');
      // an all-digit account with countryCode is also tried as that phone number (loginpathNeedCountryCode)
      const phone = /^\d{4,15}$/.test(account) && f.countryCode ? `+${f.countryCode}${account}` : account;
      const u = q.byAccount.get(account, account, phone);
      return (await checkPassword(u?.password_hash ?? null, String(f.password ?? ''), N))
        ? { code: CODES.ok, data: { user: view(u) } }
        : { code: CODES.badCredentials, msg: 'incorrect account or password' };
    },
    async [PATHS.getVerifyCode](f) {
      const phone = e164Of(f);
      if (!phone || !['login', 'register'].includes(f.purpose)) return { code: CODES.badRequest, msg: 'phone and purpose' };
      const serialNo = crypto.randomBytes(12).toString('hex');
      // a number without an account gets a serial number too (nothing told); a real backend sends the SMS here
      q.insertCode.run(serialNo, phone, String(crypto.randomInt(0, 1_000_000)).padStart(6, '0'), f.purpose, now() + CODE_TTL_SECONDS);
      return { code: CODES.ok, data: { serialNo } };
    },
    async [PATHS.loginByVerifyCode](f) {
      const phone = e164Of(f);
      const ok = phone && takeCode(String(f.serialNo ?? ''), phone, String(f.code ?? ''), 'login');
      const u = ok ? q.byPhone.get(phone) : undefined;
      return u ? { code: CODES.ok, data: { user: view(u) } } : { code: CODES.badCredentials, msg: 'invalid code' };
    },
    async [PATHS.userRegistInfo](f) {
      if (typeof f.username !== 'string' || typeof f.password !== 'string' || f.password.length < 6)
        return { code: CODES.badRequest, msg: 'username and password' };
      const phone = f.phone ? e164Of(f) : null;
      if (f.phone && (!phone || !takeCode(String(f.serialNo ?? ''), phone, String(f.code ?? ''), 'register'))) {
        return { code: CODES.badCredentials, msg: 'invalid code' };
      }
      try {
        return { code: CODES.ok, data: { user: await addUser({ username: f.username, password: f.password, email: f.email ?? null, phone }) } };
      } catch (err) {
        if (String(err.code).startsWith('SQLITE_CONSTRAINT')) return { code: CODES.userExists, msg: 'user exists' };
        throw err;
      }
    },
    async [PATHS.getUsersInfo](f) {
      const u = q.byId.get(String(f.userId ?? ''));
      return u ? { code: CODES.ok, data: { user: view(u) } } : { code: CODES.notFound, msg: 'no such user' };
    },
    async [PATHS.getUserInfoListByUcUids](f) {
      const ids = [f.userIds ?? []].flat().map(String).slice(0, 100);
      return { code: CODES.ok, data: { users: ids.map((id) => view(q.byId.get(id))).filter(Boolean) } };
    },
  };

  async function admin(req, url, body, send) {
    if (opts.adminToken && req.headers['x-admin-token'] !== opts.adminToken) return send(403, { code: 403, msg: 'admin token' });
    if (req.method === 'POST' && url.pathname === '/admin/users')
      return send(200, { code: 0, data: { user: await addUser(JSON.parse(body.toString('utf8'))) } });
    if (req.method === 'GET' && url.pathname === '/admin/codes/last') {
      const c = q.lastCode.get(url.searchParams.get('phone') ?? '');
      return c ? send(200, { code: 0, data: { code: c.code, serialNo: c.serial_no } }) : send(404, { code: 12, msg: 'none' });
    }
    if (req.method === 'GET' && url.pathname === '/admin/requests') return send(200, { code: 0, data: { requests: last } });
    return send(404, { code: 404, msg: 'not found' });
  }

  const server = http.createServer((req, res) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', async () => {
      const send = (status, obj) => {
        const text = JSON.stringify(obj);
        // a known length: the answer goes out in one write, not chunked
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      };
      const body = Buffer.concat(chunks);
      const url = new URL(req.url, 'http://backend');
      try {
        if (url.pathname.startsWith('/admin/')) return await admin(req, url, body, send);
        const handler = req.method === 'POST' && handlers[url.pathname.slice((opts.prefix ?? '').length)];
        if (!url.pathname.startsWith(opts.prefix ?? '') || !handler) return send(404, { code: 404, msg: 'not found' });
        const refused = verifySignature(req, body, { appKey: opts.appKey, appSecret: opts.appSecret, nowSeconds: now(), seenNonce });
        if (refused) return send(401, { code: 401, msg: refused });
        const type = String(req.headers['content-type'] ?? '');
        let fields;
        if (type.startsWith('application/json')) fields = JSON.parse(body.toString('utf8'));
        else if (type.startsWith('application/x-www-form-urlencoded')) {
          fields = {};
          for (const [k, v] of new URLSearchParams(body.toString('utf8'))) fields[k] = k in fields ? [fields[k], v].flat() : v;
        } else return send(400, { code: CODES.badRequest, msg: 'content type' });
        last.push({ path: url.pathname, host: req.headers.host, contentType: type, fields: { ...fields, password: fields.password ? '***' : undefined } });
        if (last.length > 50) last.shift();
        const answer = await handler(fields);
        await delay();
        return send(200, answer);
      } catch {
        return send(400, { code: CODES.badRequest, msg: 'bad request' });
      }
    });
  });
  server.addUser = addUser;
  server.on('close', () => db.close());
  return server;
}

function parseArgs(argv) {
  const o = {
    port: 4100,
    host: '127.0.0.1',
    db: 'it-backend.sqlite',
    appKey: process.env.IT_APP_KEY ?? 'demo-key',
    appSecret: process.env.IT_APP_SECRET ?? 'demo-secret',
    seed: [],
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (k === '--port') o.port = Number(v);
    else if (k === '--host') o.host = v;
    else if (k === '--db') o.db = v;
    else if (k === '--app-key') o.appKey = v;
    else if (k === '--app-secret') o.appSecret = v;
    else if (k === '--admin-token') o.adminToken = v;
    else if (k === '--prefix') o.prefix = v;
    else if (k === '--seed') o.seed.push(v);
    else if (k === '--delay-ms') o.delayMs = Number(v);
    else if (k === '--hash-cost') o.hashCost = Number(v);
    else throw new Error(`unknown option ${k}`);
  }
  // scrypt takes N = 2^1 at the least (benches: the password check then costs nothing beside --delay-ms)
  if (o.hashCost !== undefined && !(Number.isInteger(o.hashCost) && o.hashCost >= 1 && o.hashCost <= 20)) throw new Error('--hash-cost: 1 to 20');
  return o;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const o = parseArgs(process.argv.slice(2));
  const server = createServer(o);
  for (const s of o.seed) {
    const [username, password] = s.split(':');
    await server.addUser({ username, password }).catch((e) => console.error(`seed ${username}: ${e.message}`));
  }
  server.listen(o.port, o.host, () => console.log(`it-backend listening on http://${o.host}:${o.port}${o.prefix ?? ''}`));
}
