/**
 * A-45 for certificate issuance (issue 13): umbo killed with SIGKILL in the middle of a burst of
 * issuances from CSRs, then started again on the same data, is what an operator expects — on
 * SQLite and on PostgreSQL (its own schema). A real server process (main.ts under tsx, as
 * `npm start` runs it; test/processes.ts):
 * - a realm, a role holding the cert permissions and a person bound to it are written through
 *   the repositories of an in-process instance before the server starts; the person signs in
 *   over HTTP;
 * - BURST issuances from openssl-made CSRs are sent at once; the process is killed once a few
 *   have been answered, with others still under way;
 * - after the restart: every certificate answered with 200 is stored and listed; every
 *   certificate row has its issue record and audit event and every record its certificate;
 *   serial numbers are unique; a revocation shows in the CA's CRL, which openssl parses and
 *   verifies; issuing works again.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pkiPaths, type CertView } from '@umbo/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/passwords.js';
import { openProduct } from '../open.js';
import { systemClock } from '../platform/clock.js';
import { loadConfig } from '../platform/config.js';
import { openDb } from '../platform/db.js';
import { defaultRealmSettings } from '../realms/realm-settings.js';
import { serverProcesses, sleep } from '../test/processes.js';
import { makeCsr, openssl } from './pki.testkit.js';

const PASSWORD = 'Kill-Test-Pki-7731';
const BURST = 100;
/** answers received before the kill: the burst is well under way, far from over */
const BEFORE_KILL = 15;

const procs = serverProcesses();

interface Seeded {
  realmId: string;
  username: string;
  accountId: string;
}

/** The realm (no captcha before a failure), a role with every own-account cert permission and its holder. */
async function seed(env: Record<string, string>): Promise<Seeded> {
  const { dbh, ctx } = await openProduct(loadConfig({ ...env, LOG_LEVEL: 'silent' }), systemClock);
  try {
    const { repos } = ctx;
    const now = Date.now();
    const realmId = `pk${crypto.randomBytes(4).toString('hex')}`;
    await repos.realms.insertRealm({
      id: realmId,
      name: realmId,
      description: 'A-45 pki',
      settings: JSON.stringify({ ...defaultRealmSettings(), captchaPolicy: 'after_failures' }),
      created_at: now,
      updated_at: now,
    });
    const roleId = `pki-${realmId}`;
    const all = ['query', 'get', 'add', 'update', 'delete', 'edit', 'import', 'export'] as const;
    await repos.roles.insertRole({
      id: roleId,
      realm_id: realmId,
      name: `pki_${realmId}`,
      description: 'pki kill test',
      permissions: (['keys', 'certList', 'certRecord', 'cert', 'tools'] as const).map((permissionId) => ({ permissionId, actions: [...all] })),
      created_at: now,
    });
    const username = `pkikill${crypto.randomBytes(3).toString('hex')}`;
    const account = await repos.accounts.insertPerson({ realmId, username, passwordHash: await hashPassword(PASSWORD), now });
    await repos.roles.bindRole(account.id, roleId, realmId, now);
    return { realmId, username, accountId: account.id };
  } finally {
    await ctx.close();
    await dbh.close();
  }
}

async function signIn(base: string, s: Seeded): Promise<string> {
  const res = await fetch(`${base}/api/users/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: s.username, password: PASSWORD, realm_id: s.realmId }),
  });
  const body = (await res.json()) as { data?: { token: string } };
  if (!body.data) throw new Error(`sign-in: ${res.status} ${JSON.stringify(body)}`);
  return body.data.token;
}

function api(base: string, token: string) {
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(20_000),
    });
    return { status: res.status, body: (await res.json()) as { code: number; data?: any } };
  };
  return {
    issue: (csrPem: string, cn: string) => call('POST', pkiPaths.certs, { csrPem, cnType: 'deviceId', cn }),
    revoke: (certId: string) => call('POST', pkiPaths.certRevoke(certId), { reason: 'keyCompromise' }),
    /** every certificate of the account, page by page */
    async listAll(): Promise<CertView[]> {
      const out: CertView[] = [];
      let cursor: string | null = null;
      do {
        const r = await call('GET', `${pkiPaths.certs}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        if (r.status !== 200) throw new Error(`list: ${JSON.stringify(r.body)}`);
        out.push(...(r.body.data.items as CertView[]));
        cursor = r.body.data.next as string | null;
      } while (cursor);
      return out;
    },
  };
}

/** What the tables say about the account's certificates, records and audit events. */
async function stored(databaseUrl: string, s: Seeded) {
  const { db, close } = openDb(databaseUrl);
  try {
    const certs = await db.selectFrom('pki_certs').select(['id', 'sn', 'ca_id']).where('account_id', '=', s.accountId).where('type', '=', 'device').execute();
    const records = await db.selectFrom('pki_records').select(['cert_id']).where('account_id', '=', s.accountId).where('kind', '=', 'issue').execute();
    const audits = await db.selectFrom('audit_events').select(['target_id']).where('realm_id', '=', s.realmId).where('action', '=', 'pki.cert.issue').execute();
    // serials across every certificate of the database: CA certificates and other suites' rows included
    const allSerials = await db.selectFrom('pki_certs').select(['sn', 'ca_id']).execute();
    return { certs, records, audits, allSerials };
  } finally {
    await close();
  }
}

const countBy = (ids: (string | null)[]) => ids.reduce((m, id) => m.set(id ?? '', (m.get(id ?? '') ?? 0) + 1), new Map<string, number>());

async function killDuringIssuance(env: Record<string, string>, databaseUrl: string) {
  const s = await seed(env);
  const dir = procs.tmpDir('umbo-pkikill-csr-');
  const csrs = Array.from({ length: BURST + 2 }, (_, i) => makeCsr(dir, 'ec256', `dev-${i}`).csrPem);

  const first = await procs.start(env);
  const a1 = api(first.base, await signIn(first.base, s));
  // the account CA is made by the first issuance: the burst is about issuance alone
  const warm = await a1.issue(csrs[BURST]!, 'dev-warm');
  expect(warm.status, JSON.stringify(warm.body)).toBe(200);

  const answered: CertView[] = [warm.body.data as CertView];
  const refused: string[] = [];
  let inFlight = 0;
  const burst = csrs.slice(0, BURST).map(async (csrPem, i) => {
    inFlight++;
    try {
      const r = await a1.issue(csrPem, `dev-${i}`);
      if (r.status === 200) answered.push(r.body.data as CertView);
      else refused.push(`${r.status} ${JSON.stringify(r.body)}`);
    } catch {
      // the connection died with the process
    } finally {
      inFlight--;
    }
  });
  for (const end = Date.now() + 30_000; Date.now() < end && answered.length <= BEFORE_KILL && refused.length === 0;) await sleep(2);
  const inFlightAtKill = inFlight;
  first.child.kill('SIGKILL');
  await first.exited;
  await Promise.all(burst);
  expect(refused, 'an issuance was refused before the kill').toEqual([]);
  expect(answered.length).toBeGreaterThan(BEFORE_KILL);
  // killed mid-burst: answers were still owed
  expect(inFlightAtKill, 'the burst was over before the kill: make it larger').toBeGreaterThan(0);

  // What the file holds after the kill (opening it recovers it, as the restart does), read
  // while no server runs: a server holds a SQLite file for itself (platform/db.ts).
  const t = await stored(databaseUrl, s);

  const second = await procs.start(env);
  try {
    const a2 = api(second.base, await signIn(second.base, s));

    // every certificate the client was given is stored, unchanged, and listed
    const listed = new Map((await a2.listAll()).map((c) => [c.id, c]));
    for (const c of answered) {
      expect(listed.get(c.id)?.sn, `certificate ${c.cn} answered with 200 but not listed`).toBe(c.sn);
      expect(listed.get(c.id)?.fingerprint).toBe(c.fingerprint);
    }

    // no certificate without its issue record and audit event, no record without its certificate
    expect(t.certs.length).toBe(listed.size);
    const certIds = new Set(t.certs.map((c) => c.id));
    const recordsPer = countBy(t.records.map((r) => r.cert_id));
    const auditsPer = countBy(t.audits.map((r) => r.target_id));
    for (const id of certIds) {
      expect(recordsPer.get(id) ?? 0, `issue records of certificate ${id}`).toBe(1);
      expect(auditsPer.get(id) ?? 0, `audit events of certificate ${id}`).toBe(1);
    }
    expect(
      [...recordsPer.keys()].filter((id) => !certIds.has(id)),
      'issue records without a certificate',
    ).toEqual([]);
    expect(
      [...auditsPer.keys()].filter((id) => !certIds.has(id)),
      'audit events without a certificate',
    ).toEqual([]);

    // serial numbers unique per issuing CA (CA-01), and in this database at all
    const serials = t.allSerials.map((r) => r.sn);
    expect(new Set(serials).size).toBe(serials.length);

    // the CA still revokes and publishes: the revoked serial is in a CRL openssl parses and verifies
    const victim = answered[1]!;
    expect((await a2.revoke(victim.id)).status).toBe(200);
    const caId = t.certs.find((c) => c.id === victim.id)!.ca_id!;
    const caRes = await fetch(`${second.base}${pkiPaths.publicCaCert(s.realmId, caId)}`);
    expect(caRes.status).toBe(200);
    const caDer = Buffer.from(await caRes.arrayBuffer());
    const caPem = path.join(dir, 'account-ca.pem');
    expect(openssl(['x509', '-inform', caDer.subarray(0, 5).toString() === '-----' ? 'PEM' : 'DER', '-out', caPem], caDer).code).toBe(0);
    const crlRes = await fetch(`${second.base}${pkiPaths.publicCrl(s.realmId, caId)}`);
    expect(crlRes.status).toBe(200);
    const crlPath = path.join(dir, 'account.crl');
    fs.writeFileSync(crlPath, Buffer.from(await crlRes.arrayBuffer()));
    const crl = openssl(['crl', '-inform', 'DER', '-in', crlPath, '-CAfile', caPem, '-noout', '-text']);
    expect(crl.code, crl.out).toBe(0);
    expect(crl.out).toMatch(/verify OK/);
    const revokedSerials = [...crl.stdout.matchAll(/Serial Number: ([0-9A-F]+)/gi)].map((m) => BigInt(`0x${m[1]}`));
    expect(revokedSerials).toEqual([BigInt(victim.sn)]);

    // and it issues again
    const again = await a2.issue(csrs[BURST + 1]!, 'dev-after');
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await a2.listAll()).some((c) => c.id === (again.body.data as CertView).id)).toBe(true);
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
}

describe('A-45 certificate issuance killed mid-burst (kill -9)', () => {
  afterAll(async () => {
    await procs.stopAll();
  });

  const baseEnv = () => ({
    DATA_DIR: procs.tmpDir('umbo-pkikill-'),
    MASTER_KEY: '44'.repeat(32),
    PUBLIC_URL: 'http://umbo-pki-kill.test',
    ADMIN_PASSWORD: 'Kill-Test-Admin-5512',
    MASTER_CAPTCHA_POLICY: 'after_failures',
  });

  it('[sqlite] every answered certificate is stored with its record and audit event; the CRL and issuance work after a restart', async () => {
    const env = baseEnv();
    await killDuringIssuance(env, `sqlite:${path.join(env.DATA_DIR, 'umbo.sqlite')}`);
  }, 120_000);

  it('[postgres] every answered certificate is stored with its record and audit event; the CRL and issuance work after a restart', async () => {
    const { url } = await procs.pgSchemaForProcess('t_pkikill_');
    await killDuringIssuance({ ...baseEnv(), DATABASE_URL: url }, url);
  }, 120_000);
});
