/**
 * Fixtures of the PKI suites (issue 13): an account allowed the cert pages, openssl-made CSRs,
 * issuance through the API, and openssl as the judge. Missing openssl fails with the install line.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pkiPaths, type CertView } from '@umbo/contracts';
import { afterAll, expect } from 'vitest';
import type { Harness } from '../test/harness.js';
import { as, bindRole, createPerson, tokenFor, type TestAccount } from '../test/kit.js';

export const OPENSSL_MISSING = 'openssl is not installed: apt-get install -y openssl mosquitto';

/** A person of `realmId` holding every own-account cert permission there, with its token. */
export async function pkiUser(h: Harness, realmId: string): Promise<TestAccount & { token: string }> {
  const roleId = `pki-${realmId}`;
  if (!(await h.dbh.db.selectFrom('roles').select('id').where('id', '=', roleId).executeTakeFirst())) {
    const all = ['query', 'get', 'add', 'update', 'delete', 'edit', 'import', 'export'] as const;
    await h.ctx.repos.roles.insertRole({
      id: roleId,
      realm_id: realmId,
      name: `pki_${realmId}`,
      description: 'pki user',
      permissions: (['keys', 'certList', 'certRecord', 'cert', 'tools'] as const).map((permissionId) => ({ permissionId, actions: [...all] })),
      created_at: h.clock.now(),
    });
  }
  const person = await createPerson(h, { realmId });
  await bindRole(h, person, roleId, realmId);
  return { ...person, token: await tokenFor(h, person) };
}

export function openssl(args: string[], input?: string | Buffer): { code: number; out: string; stdout: string } {
  const r = spawnSync('openssl', args, { input, encoding: 'utf8', timeout: 30_000 });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(OPENSSL_MISSING);
  if (r.error) throw r.error;
  return { code: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, stdout: r.stdout ?? '' };
}

const madeDirs = new Set<string>();
/**
 * A temporary directory (CSRs and their private keys go there). Each one is removed when the test
 * file that made it ends: this module is evaluated with each test file, so the hook below is
 * that file's own, whichever suite or test asked for the directory.
 */
export function tmpDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-pki-'));
  madeDirs.add(dir);
  return dir;
}
afterAll(() => {
  for (const dir of madeDirs) fs.rmSync(dir, { recursive: true, force: true });
  madeDirs.clear();
});

export type CsrKey = 'ec256' | 'ec384' | 'rsa2048' | 'rsa1024' | 'ed25519';
const NEWKEY: Record<CsrKey, string[]> = {
  ec256: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'],
  ec384: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'],
  rsa2048: ['-newkey', 'rsa:2048'],
  rsa1024: ['-newkey', 'rsa:1024'],
  ed25519: ['-newkey', 'ed25519'],
};

/** `openssl req` makes a key and a CSR for `/CN=cn` (with `extra` args, e.g. -addext). */
export function makeCsr(dir: string, key: CsrKey, cn: string, extra: string[] = []): { csrPem: string; keyPath: string } {
  const keyPath = path.join(dir, `${cn}-${key}.key`);
  const csrPath = path.join(dir, `${cn}-${key}.csr`);
  const r = openssl(['req', '-new', ...NEWKEY[key], '-nodes', '-keyout', keyPath, '-out', csrPath, '-subj', `/CN=${cn}`, ...extra]);
  if (r.code !== 0) throw new Error(`openssl req failed: ${r.out}`);
  return { csrPem: fs.readFileSync(csrPath, 'utf8'), keyPath };
}

export async function issueFromCsr(h: Harness, token: string, csrPem: string, cn: string, extra: object = {}): Promise<CertView> {
  const res = await as(h, token).post(pkiPaths.certs, { csrPem, cnType: 'deviceId', cn, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as CertView;
}

/** The account's chain as the API answers it (account CA, realm CA, root), written to files for openssl. */
export async function chainFiles(h: Harness, token: string, dir: string): Promise<{ rootPath: string; untrustedPath: string; pems: string[] }> {
  const res = await as(h, token).get(pkiPaths.caChain('pem'));
  expect(res.status).toBe(200);
  const pems = res.text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n/g) ?? [];
  expect(pems).toHaveLength(3);
  const rootPath = path.join(dir, 'root.pem');
  const untrustedPath = path.join(dir, 'untrusted.pem');
  fs.writeFileSync(rootPath, pems[2]!);
  fs.writeFileSync(untrustedPath, pems[0]! + pems[1]!);
  return { rootPath, untrustedPath, pems };
}

/** `openssl verify -CAfile root -untrusted chain cert`: its output ("…: OK" when it accepts). */
export function verifyWithOpenssl(
  dir: string,
  chain: { rootPath: string; untrustedPath: string },
  certPem: string,
  extra: string[] = [],
): { code: number; out: string } {
  const certPath = path.join(dir, `leaf-${Math.random().toString(36).slice(2)}.pem`);
  fs.writeFileSync(certPath, certPem);
  return openssl(['verify', '-CAfile', chain.rootPath, '-untrusted', chain.untrustedPath, ...extra, certPath]);
}

/** Row counts of the PKI tables: "nothing stored" is these unchanged. */
export async function pkiCounts(h: Harness): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of ['pki_certs', 'pki_records', 'pki_keys', 'pki_cas'] as const) {
    const r = await h.dbh.db
      .selectFrom(t)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    out[t] = Number(r.n);
  }
  return out;
}
