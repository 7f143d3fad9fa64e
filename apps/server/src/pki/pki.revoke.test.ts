/**
 * Revocation and CRLs (issue 13, A-43, CA-04) on SQLite and PostgreSQL: `openssl crl -text`
 * shows the revoked serial with its reason, the CRL verifies against the CA, nextUpdate is set
 * and cRLNumber strictly increases across regenerations AND a restart of the server on the same
 * database. Public CA/CRL URLs need no token; another realm's / account's certificate is 1004.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pkiPaths, type CaView } from '@umbo/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { createHarness, DB_TARGETS, PG_URL, type DbTarget, type Harness } from '../test/harness.js';
import { as, createRealm } from '../test/kit.js';
import { openDb } from '../platform/db.js';
import { randomString } from '../platform/crypto.js';
import { chainFiles, issueFromCsr, makeCsr, openssl, pkiUser, tmpDir, verifyWithOpenssl } from './pki.testkit.js';

/** A database that outlives one harness: a second harness on it is "the server restarted". */
function persistentTarget(dialect: 'sqlite' | 'postgres'): { target: DbTarget; cleanup(): Promise<void> } {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-pki-restart-'));
    const url = `sqlite:${path.join(dir, 'db.sqlite')}`;
    return {
      // each harness closes its handle: the next one is a new process, and a server holds its SQLite file for itself
      target: {
        dialect,
        open: async () => {
          const dbh = openDb(url);
          return { dbh, url, dispose: () => dbh.close() };
        },
      },
      cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `t_${randomString(12).toLowerCase()}`;
  let created = false;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  return {
    target: {
      dialect,
      open: async () => {
        if (!created) await admin(`create schema ${schema}`);
        created = true;
        const dbh = openDb(PG_URL, { schema, poolMax: 5 });
        return { dbh, url: PG_URL, schema, dispose: () => dbh.close() };
      },
    },
    cleanup: () => admin(`drop schema if exists ${schema} cascade`),
  };
}

const crlText = (pem: string) => openssl(['crl', '-noout', '-text'], pem).stdout;
const crlNumberOf = (text: string) => Number(/X509v3 CRL Number:\s*\n\s*(\d+)/.exec(text)?.[1] ?? NaN);
const hexSerial = (dec: string) => BigInt(dec).toString(16).toUpperCase().padStart(2, '0');

for (const dbTarget of DB_TARGETS) {
  describe(`pki revocation and CRLs [${dbTarget.dialect}]`, () => {
    const { target, cleanup } = persistentTarget(dbTarget.dialect);
    let h: (Harness & { dispose(): Promise<void> }) | undefined;
    afterAll(async () => {
      await h?.dispose();
      await cleanup();
    });

    it('A-43 CA-04 revoked serial + reason in a CRL signed by the CA; nextUpdate; cRLNumber strictly increasing across regenerations and a restart', async () => {
      h = await createHarness(target);
      const dir = tmpDir();
      const realmId = await createRealm(h);
      const u = await pkiUser(h, realmId);
      const api = as(h, u.token);
      const ca = (await api.get(pkiPaths.ca)).body.data as CaView;
      const chain = await chainFiles(h, u.token, dir);
      const a = await issueFromCsr(h, u.token, makeCsr(dir, 'ec256', 'dev-a').csrPem, 'dev-a');
      const b = await issueFromCsr(h, u.token, makeCsr(dir, 'rsa2048', 'dev-b').csrPem, 'dev-b');

      // public, no token
      const first = await as(h).get(pkiPaths.publicCrlPem(realmId, ca.id));
      expect(first.status).toBe(200);
      const n0 = crlNumberOf(crlText(first.text));
      expect(crlText(first.text)).toMatch(/No Revoked Certificates/);

      expect((await api.post(pkiPaths.certRevoke(a.id), { reason: 'keyCompromise' })).status).toBe(200);
      const afterA = crlText((await as(h).get(pkiPaths.publicCrlPem(realmId, ca.id))).text);
      const n1 = crlNumberOf(afterA);
      expect(n1).toBeGreaterThan(n0);
      expect(afterA).toContain(`Serial Number: ${hexSerial(a.sn)}`);
      expect(afterA).toMatch(/Key Compromise/);
      expect(afterA).toMatch(/Next Update: /);
      expect(afterA).not.toContain(`Serial Number: ${hexSerial(b.sn)}`);

      // signed by the account CA: openssl verifies the CRL with the CA certificate, and refuses the revoked leaf with -crl_check
      const der = await as(h).get(pkiPaths.publicCrl(realmId, ca.id));
      expect(der.headers['content-type']).toMatch(/pkix-crl/);
      const crlDer = path.join(dir, 'a.crl');
      fs.writeFileSync(crlDer, der.raw);
      const caPem = path.join(dir, 'account-ca.pem');
      fs.writeFileSync(caPem, ca.certPem);
      expect(openssl(['crl', '-inform', 'DER', '-in', crlDer, '-CAfile', caPem, '-noout']).out).toMatch(/verify OK/);
      const crlPemPath = path.join(dir, 'a.crl.pem');
      fs.writeFileSync(crlPemPath, (await as(h).get(pkiPaths.publicCrlPem(realmId, ca.id))).text);
      expect(verifyWithOpenssl(dir, chain, a.certPem, ['-crl_check', '-CRLfile', crlPemPath]).out).toMatch(/certificate revoked/);
      expect(verifyWithOpenssl(dir, chain, b.certPem, ['-crl_check', '-CRLfile', crlPemPath]).out).toMatch(/: OK/);

      await api.post(pkiPaths.certRevoke(b.id), { reason: 'cessationOfOperation' });
      const afterB = crlText((await as(h).get(pkiPaths.publicCrlPem(realmId, ca.id))).text);
      const n2 = crlNumberOf(afterB);
      expect(n2).toBeGreaterThan(n1);
      expect(afterB).toMatch(/Cessation Of Operation/);

      // the job regenerates before nextUpdate: 6.5 days later
      h.clock.advance(6.5 * 86_400_000);
      await h.ctx.services.pkiCrl.refreshDue();
      const n3 = crlNumberOf(crlText((await as(h).get(pkiPaths.publicCrlPem(realmId, ca.id))).text));
      expect(n3).toBeGreaterThan(n2);

      // restart: a new server process on the same database
      const now = h.clock.now();
      await h.dispose();
      h = await createHarness(target);
      h.clock.set(now);
      await h.ctx.services.pkiCrl.regenerate(ca.id);
      const n4 = crlNumberOf(crlText((await as(h).get(pkiPaths.publicCrlPem(realmId, ca.id))).text));
      expect(n4).toBeGreaterThan(n3);
      const u2 = await h.login(u.username, u.password, realmId);
      expect((await as(h, u2).post(pkiPaths.certRevoke(a.id), { reason: 'unspecified' })).body).toMatchObject({ code: 1109 });
    });
  });
}
