/**
 * Races of the device CA (issue 13) that an attacker or a buggy device fleet can repeat at will,
 * each with dozens of parallel HTTP requests through the real routes, on SQLite and PostgreSQL:
 * what a user would check afterwards — the answers (never a 500), one row / record / audit
 * event where one change happened, and no half-written state (a certificate whose key row is
 * gone, two current certificates of one CA).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pkiPaths, type CaView, type CertView } from '@umbo/contracts';
import { beforeAll, expect, it, vi } from 'vitest';
import { holder } from '../perm/roles.testkit.js';
import { describeBothDbs, type Harness } from '../test/harness.js';
import { as, createRealm } from '../test/kit.js';
import { chainFiles, issueFromCsr, makeCsr, openssl, pkiCounts, pkiUser, tmpDir, verifyWithOpenssl } from './pki.testkit.js';

type Answer = { status: number; body: { code?: number; data?: unknown } };

/** Every answer is one of `allowed` (status 200, or an error code); a 500 or anything else fails with the body. */
function expectOnly(answers: Answer[], allowed: (200 | number)[]) {
  for (const a of answers) {
    const got = a.status === 200 ? 200 : (a.body.code ?? a.status);
    expect(allowed, `${a.status} ${JSON.stringify(a.body)}`).toContain(got);
  }
}

const auditCount = (h: Harness, action: string, targetId: string) =>
  h.dbh.db
    .selectFrom('audit_events')
    .select('id')
    .where('action', '=', action)
    .where('target_id', '=', targetId)
    .execute()
    .then((r) => r.length);

/**
 * Holds every issuance and reissue at its CA lookup (after its own checks, before it signs and
 * stores) until released: the window each parallel request has anyway, made wide enough that
 * another request completes inside it on every run.
 */
function holdAtCaLookup(h: Harness) {
  const pkiCa = h.ctx.services.pkiCa;
  // issuance looks its CA chain up through accountChain (chain.ts), once per request until released
  const accountChain = pkiCa.accountChain.bind(pkiCa);
  let open = () => {};
  const gate = new Promise<void>((r) => (open = r));
  let waiting = 0;
  const spy = vi.spyOn(pkiCa, 'accountChain').mockImplementation(async (...args) => {
    waiting++;
    await gate;
    return accountChain(...args);
  });
  return {
    waiting: () => waiting,
    release() {
      open();
      spy.mockRestore();
    },
  };
}

describeBothDbs('pki races', (h) => {
  let dir: string;
  beforeAll(() => {
    dir = tmpDir();
  });
  const at = () => ['-attime', String(Math.floor(h().clock.now() / 1000))];

  it('A-43 reissue ×30 in parallel: reissue never supersedes nor revokes the old certificate, so each request is its own reissue — 30 distinct serials, one record and one audit event each, the old certificate untouched', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const api = as(h(), u.token);
    const old = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'reissued').csrPem, 'reissued');
    h().clock.advance(60_000);

    const answers = await Promise.all(Array.from({ length: 30 }, () => api.post(pkiPaths.certReissue(old.id))));
    expectOnly(answers, [200]);
    const made = answers.map((a) => a.body.data as CertView);
    expect(new Set(made.map((c) => c.id)).size).toBe(30);
    expect(new Set(made.map((c) => c.sn)).size).toBe(30);
    expect(made.map((c) => c.sn)).not.toContain(old.sn);
    for (const c of made) expect(c).toMatchObject({ cn: 'reissued', status: 'valid' });

    const ids = made.map((c) => c.id);
    const records = await h()
      .dbh.db.selectFrom('pki_records')
      .select(['cert_id', 'kind'])
      .where('cert_id', 'in', [old.id, ...ids])
      .execute();
    expect(
      records
        .filter((r) => r.kind === 'reissue')
        .map((r) => r.cert_id)
        .sort(),
    ).toEqual([...ids].sort());
    expect(records.filter((r) => r.cert_id === old.id).map((r) => r.kind)).toEqual(['issue']);
    for (const id of ids) expect(await auditCount(h(), 'pki.cert.reissue', id)).toBe(1);

    // the old certificate stays as it was: valid, current, same serial
    const oldNow = (await api.get(pkiPaths.cert(old.id))).body.data as CertView;
    expect(oldNow).toMatchObject({ id: old.id, sn: old.sn, status: 'valid' });
    expect(await h().dbh.db.selectFrom('pki_certs').select(['superseded', 'revoked_at']).where('id', '=', old.id).executeTakeFirst()).toEqual({
      superseded: 0,
      revoked_at: null,
    });
    // every reissued certificate is a whole one: openssl accepts it with the chain, same key as the old
    const chain = await chainFiles(h(), u.token, fs.mkdtempSync(path.join(dir, 'reissue-')));
    const oldKey = openssl(['x509', '-noout', '-pubkey'], old.certPem).stdout;
    for (const c of made) {
      expect(verifyWithOpenssl(dir, chain, c.certPem, at()).out).toMatch(/: OK/);
      expect(openssl(['x509', '-noout', '-pubkey'], c.certPem).stdout).toBe(oldKey);
    }
  });

  it('A-43 reissue ×20 checked before a keyCompromise revocation and storing after it: all refused (1109) — no certificate for the compromised key is stored once its revocation is answered; the CRL lists the serial', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const api = as(h(), u.token);
    const ca = (await api.get(pkiPaths.ca)).body.data as CaView;
    const old = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'compromised').csrPem, 'compromised');
    const before = await pkiCounts(h());
    // the window every parallel reissue has, made wide: each has found the certificate unrevoked
    // and waits at the CA lookup until the revocation has been answered
    const hold = holdAtCaLookup(h());
    try {
      const reissues = Array.from({ length: 20 }, () => api.post(pkiPaths.certReissue(old.id)));
      await vi.waitFor(() => expect(hold.waiting()).toBe(20));
      const revoke = await api.post(pkiPaths.certRevoke(old.id), { reason: 'keyCompromise' });
      expect(revoke.status, JSON.stringify(revoke.body)).toBe(200);
      hold.release();
      expectOnly(await Promise.all(reissues), [1109]);
    } finally {
      hold.release();
    }
    // only the revocation was written: its certificate state, one record; no reissued certificate
    expect(await pkiCounts(h())).toEqual({ ...before, pki_records: before.pki_records! + 1 });
    expect(await h().dbh.db.selectFrom('pki_records').select('kind').where('account_id', '=', u.id).where('kind', '=', 'reissue').execute()).toEqual([]);
    expect(await h().dbh.db.selectFrom('audit_events').select('id').where('realm_id', '=', realmId).where('action', '=', 'pki.cert.reissue').execute()).toEqual(
      [],
    );
    expect((await api.post(pkiPaths.certReissue(old.id))).body).toMatchObject({ code: 1109 });
    const crl = openssl(['crl', '-noout', '-text'], (await as(h()).get(pkiPaths.publicCrlPem(realmId, ca.id))).text).stdout;
    expect(crl).toContain(`Serial Number: ${BigInt(old.sn).toString(16).toUpperCase().padStart(2, '0')}`);
    expect(crl).toMatch(/Key Compromise/);
  });

  it('A-31-style repeatable set cert ×30 of one certificate on one key: one certificate row, one import record and audit event; every request answers that row', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const api = as(h(), u.token);
    const key = (await api.post(pkiPaths.keys, { name: 'attach30', description: 'set cert race', algorithm: 'EC', strength: 'P-256', returnPrivateKey: true }))
      .body.data as { id: string; keyPem: string };
    const keyPath = path.join(dir, `${key.id}.key`);
    fs.writeFileSync(keyPath, key.keyPem);
    const issued = await issueFromCsr(h(), u.token, openssl(['req', '-new', '-key', keyPath, '-subj', '/CN=attached']).stdout, 'attached');

    const answers = await Promise.all(Array.from({ length: 30 }, () => api.post(pkiPaths.keyCert(key.id), { certPem: issued.certPem })));
    expectOnly(answers, [200]);
    const rows = await h().dbh.db.selectFrom('pki_certs').select(['id', 'fingerprint']).where('key_id', '=', key.id).execute();
    expect(rows).toHaveLength(1);
    const attached = rows[0]!;
    expect(new Set(answers.map((a) => (a.body.data as CertView).id))).toEqual(new Set([attached.id]));
    expect(await h().dbh.db.selectFrom('pki_records').select('kind').where('cert_id', '=', attached.id).execute()).toEqual([{ kind: 'import' }]);
    expect(await auditCount(h(), 'pki.cert.import', attached.id)).toBe(1);
    // a later repeat (a double click) changes nothing either
    const again = await api.post(pkiPaths.keyCert(key.id), { certPem: issued.certPem });
    expect(again.status).toBe(200);
    expect((again.body.data as CertView).id).toBe(attached.id);
    expect(await h().dbh.db.selectFrom('pki_certs').select('id').where('key_id', '=', key.id).execute()).toHaveLength(1);
    // the key now has its valid certificate: deleting it is refused
    expect((await api.delete(pkiPaths.key(key.id))).body).toMatchObject({ code: 1107 });
  });

  it('A-43 renew of one account CA ×20 by administrators: one renewal — every request answers the same renewed CA, one current certificate, one renewCa record, one audit event; earlier leaves still verify', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const u = await pkiUser(h(), realmId);
    const first = (await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView;
    const leaf = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'before-renew').csrPem, 'before-renew');
    h().clock.advance(3_600_000);

    const answers = await Promise.all(Array.from({ length: 20 }, () => as(h(), admin.token).post(pkiPaths.realmAccountCaRenew(realmId, first.id))));
    expectOnly(answers, [200]);
    const views = answers.map((a) => a.body.data as CaView);
    expect(new Set(views.map((v) => v.sn)).size).toBe(1);
    const renewed = views[0]!;
    expect(renewed).toMatchObject({ id: first.id, status: 'valid', subject: first.subject });
    expect(renewed.sn).not.toBe(first.sn);

    const caRow = await h().dbh.db.selectFrom('pki_cas').select('cert_id').where('id', '=', first.id).executeTakeFirstOrThrow();
    const current = await h()
      .dbh.db.selectFrom('pki_certs')
      .select(['id', 'sn'])
      .where('subject_ca_id', '=', first.id)
      .where('superseded', '=', 0)
      .where('revoked_at', 'is', null)
      .execute();
    expect(current).toEqual([{ id: caRow.cert_id, sn: renewed.sn }]);
    expect(await h().dbh.db.selectFrom('pki_certs').select('id').where('subject_ca_id', '=', first.id).execute()).toHaveLength(2);
    expect(await h().dbh.db.selectFrom('pki_records').select('sn').where('kind', '=', 'renewCa').where('account_id', '=', u.id).execute()).toEqual([
      { sn: renewed.sn },
    ]);
    expect(await auditCount(h(), 'pki.ca.renew', first.id)).toBe(1);

    // issued certificates keep verifying with the renewed chain
    const chain = await chainFiles(h(), u.token, fs.mkdtempSync(path.join(dir, 'renew-')));
    expect(chain.pems[0]!.replace(/\s+/g, '')).toBe(renewed.certPem.replace(/\s+/g, ''));
    expect(verifyWithOpenssl(dir, chain, leaf.certPem, at()).out).toMatch(/: OK/);
    // a repeat right after (a double click, or a request that read the CA once the winner had
    // committed) answers the same renewal
    h().clock.advance(30_000);
    const repeat = await as(h(), admin.token).post(pkiPaths.realmAccountCaRenew(realmId, first.id));
    expect(repeat.status).toBe(200);
    expect((repeat.body.data as CaView).sn).toBe(renewed.sn);
    expect(await auditCount(h(), 'pki.ca.renew', first.id)).toBe(1);
    // a later renewal is a renewal of its own
    h().clock.advance(3_600_000);
    const later = await as(h(), admin.token).post(pkiPaths.realmAccountCaRenew(realmId, first.id));
    expect(later.status).toBe(200);
    expect((later.body.data as CaView).sn).not.toBe(renewed.sn);
    expect(await auditCount(h(), 'pki.ca.renew', first.id)).toBe(2);
  });

  it('A-43 renew ×10 racing the revocation of that account CA: the CA ends revoked with no live certificate (renewal never revives its key), renewals 200 or 1114', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const u = await pkiUser(h(), realmId);
    const first = (await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView;
    const post = (p: string, body?: object) => as(h(), admin.token).post(p, body);
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => post(pkiPaths.realmAccountCaRenew(realmId, first.id))),
      post(pkiPaths.realmAccountCaRevoke(realmId, first.id), { reason: 'keyCompromise' }),
      ...Array.from({ length: 5 }, () => post(pkiPaths.realmAccountCaRenew(realmId, first.id))),
    ]);
    const revoke = answers.splice(5, 1)[0]!;
    expect(revoke.status, JSON.stringify(revoke.body)).toBe(200);
    expectOnly(answers, [200, 1114]);
    const live = await h().dbh.db.selectFrom('pki_certs').select('id').where('subject_ca_id', '=', first.id).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
    expect(((await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView).status).toBe('revoked');
  });

  it('A-43 delete of a managed key racing ×20 issuances from it: the delete wins (issuances 1004) or the issuances do (delete 1107) — never a certificate whose key is gone', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const api = as(h(), u.token);
    const outcomes: string[] = [];
    // the delete sent first, amid, and last of the burst: different interleavings each round
    for (const [round, pos] of [0, 10, 20, 5, 15].entries()) {
      const key = (await api.post(pkiPaths.keys, { name: `race${round}`, description: 'delete race', algorithm: 'EC', strength: 'P-256' })).body.data as {
        id: string;
      };
      const issues = Array.from({ length: 20 }, (_, i) => () => api.post(pkiPaths.certs, { keyId: key.id, cnType: 'deviceId', cn: `race-${round}-${i}` }));
      const all = [...issues.slice(0, pos), () => api.delete(pkiPaths.key(key.id)), ...issues.slice(pos)].map((f) => f());
      const answers = await Promise.all(all);
      const del = answers.splice(pos, 1)[0]!;
      expectOnly([del], [200, 1107]);
      expectOnly(answers, [200, 1004]);
      const keyRow = await h().dbh.db.selectFrom('pki_keys').select('id').where('id', '=', key.id).executeTakeFirst();
      const certRows = await h().dbh.db.selectFrom('pki_certs').select('id').where('key_id', '=', key.id).execute();
      const issued = answers.filter((a) => a.status === 200).length;
      if (del.status === 200) {
        expect(keyRow).toBeUndefined();
        expect(certRows).toEqual([]);
        expect(issued).toBe(0);
        outcomes.push('delete');
      } else {
        expect(keyRow).toEqual({ id: key.id });
        expect(issued).toBeGreaterThan(0);
        expect(certRows).toHaveLength(issued);
        outcomes.push(`issued ${issued}`);
      }
      // one issue record per stored certificate, none for a refused request
      expect(await h().dbh.db.selectFrom('pki_records').select('id').where('kind', '=', 'issue').where('cn', 'like', `race-${round}-%`).execute()).toHaveLength(
        issued,
      );
    }
    // the widest window: 20 issuances have found the key and wait; the delete sees no certificate
    // yet and wins, so every one of them must find the key gone when it stores (1004)
    const key = (await api.post(pkiPaths.keys, { name: 'racewide', description: 'delete race', algorithm: 'EC', strength: 'P-256' })).body.data as {
      id: string;
    };
    const hold = holdAtCaLookup(h());
    try {
      const issues = Array.from({ length: 20 }, (_, i) => api.post(pkiPaths.certs, { keyId: key.id, cnType: 'deviceId', cn: `racewide-${i}` }));
      await vi.waitFor(() => expect(hold.waiting()).toBe(20));
      const del = await api.delete(pkiPaths.key(key.id));
      expect(del.status, JSON.stringify(del.body)).toBe(200);
      hold.release();
      expectOnly(await Promise.all(issues), [1004]);
    } finally {
      hold.release();
    }
    expect(await h().dbh.db.selectFrom('pki_records').select('id').where('cn', 'like', 'racewide-%').execute()).toEqual([]);

    // across the whole account: no certificate names a key that is gone
    const orphans = await h()
      .dbh.db.selectFrom('pki_certs')
      .leftJoin('pki_keys', 'pki_keys.id', 'pki_certs.key_id')
      .select('pki_certs.id')
      .where('pki_certs.account_id', '=', u.id)
      .where('pki_certs.key_id', 'is not', null)
      .where('pki_keys.id', 'is', null)
      .execute();
    expect(orphans, outcomes.join(', ')).toEqual([]);
  });
});
