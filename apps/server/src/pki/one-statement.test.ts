/**
 * One statement for an issuance's inserts (one-statement.ts) on SQLite and PostgreSQL: all of
 * them are stored, or — when one fails — none; a `work` that does more than insert runs in an
 * ordinary transaction. The renumbering of parameters is checked on its own.
 */
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newId } from '../platform/crypto.js';
import { describeBothDbs } from '../test/harness.js';
import { createRealm } from '../test/kit.js';
import type { CertRow } from './certs.repo.js';
import { combineInserts, createOneStatement } from './one-statement.js';

describe('combineInserts', () => {
  it('joins plain inserts under WITH, parameters renumbered in order; anything else is refused', () => {
    const a = CompiledQuery.raw('insert into "t1" ("a", "b") values ($1, $2)', [1, 2]);
    const b = CompiledQuery.raw('insert into "t2" ("c") values ($1)', [3]);
    const c = CompiledQuery.raw('insert into "t3" ("d", "e") values ($1, $2)', [4, 5]);
    expect(combineInserts([a, b, c])).toMatchObject({
      sql: 'with w1 as (insert into "t1" ("a", "b") values ($1, $2)), w2 as (insert into "t2" ("c") values ($3)) insert into "t3" ("d", "e") values ($4, $5)',
      parameters: [1, 2, 3, 4, 5],
    });
    expect(combineInserts([a])?.sql).toBe(a.sql);
    expect(combineInserts([])).toBeUndefined();
    expect(combineInserts([a, CompiledQuery.raw('update "t2" set "c" = $1', [1])])).toBeUndefined();
    expect(combineInserts([CompiledQuery.raw('insert into "t1" ("a") values ($1) returning "a"', [1])])).toBeUndefined();
  });
});

describeBothDbs('pki one statement', (h) => {
  const certRow = (realmId: string, id = newId()): CertRow => ({
    id,
    realm_id: realmId,
    account_id: null,
    ca_id: null,
    subject_ca_id: null,
    type: 'device',
    cn_type: 'deviceId',
    cn: 'one-statement',
    san: '[]',
    sn: '1',
    key_id: null,
    description: '',
    issuer: 'CN=test',
    subject: 'CN=one-statement',
    fingerprint: newId(),
    ours: 0,
    superseded: 0,
    cert_pem: '',
    not_before: 0,
    not_after: 1,
    revoked_at: null,
    revoke_reason: null,
    created_at: Date.now(),
  });
  const record = (realmId: string, certId: string, id = newId()) => ({
    id,
    realm_id: realmId,
    account_id: null,
    kind: 'issue',
    cert_id: certId,
    sn: '1',
    cn: 'one-statement',
    actor_id: null,
    actor_name: null,
    reason: null,
    at: Date.now(),
  });
  const count = async (table: 'pki_certs' | 'pki_records', realmId: string) =>
    (await h().dbh.db.selectFrom(table).select('id').where('realm_id', '=', realmId).execute()).length;

  it('stores every insert of the work', async () => {
    const realmId = await createRealm(h());
    const { pkiCerts } = h().ctx.repos;
    const cert = certRow(realmId);
    await pkiCerts.insertTogether(async (trx) => {
      await pkiCerts.insertCert(cert, trx);
      await pkiCerts.insertRecord(record(realmId, cert.id), trx);
      await h().ctx.services.audit.record({ realmId, actor: null, action: 'pki.test', target: { type: 'cert', id: cert.id, name: 'x' }, result: 'ok' }, trx);
    });
    expect(await count('pki_certs', realmId)).toBe(1);
    expect(await count('pki_records', realmId)).toBe(1);
    const audit = await h().dbh.db.selectFrom('audit_events').select('target_id').where('realm_id', '=', realmId).where('action', '=', 'pki.test').execute();
    expect(audit).toEqual([{ target_id: cert.id }]);
  });

  it('stores nothing when a later insert fails', async () => {
    const realmId = await createRealm(h());
    const { pkiCerts } = h().ctx.repos;
    const first = certRow(realmId);
    await pkiCerts.insertTogether((trx) => pkiCerts.insertRecord(record(realmId, first.id, 'taken-record-id-' + realmId), trx));
    const cert = certRow(realmId);
    await expect(
      pkiCerts.insertTogether(async (trx) => {
        await pkiCerts.insertCert(cert, trx);
        // the record's id is taken: the statement fails, the certificate with it
        await pkiCerts.insertRecord(record(realmId, cert.id, 'taken-record-id-' + realmId), trx);
      }),
    ).rejects.toThrow();
    expect(await count('pki_certs', realmId)).toBe(0);
    expect(await count('pki_records', realmId)).toBe(1);
  });

  it('a work that reads runs as a transaction (its reads answer)', async () => {
    const realmId = await createRealm(h());
    const oneStatement = createOneStatement(h().dbh.db);
    const { pkiCerts } = h().ctx.repos;
    const cert = certRow(realmId);
    let seen: CertRow | undefined;
    await oneStatement(async (trx) => {
      await pkiCerts.insertCert(cert, trx);
      seen = await pkiCerts.findById(cert.id, trx);
    });
    expect(seen?.id).toBe(cert.id);
    expect(await count('pki_certs', realmId)).toBe(1);
  });
});
