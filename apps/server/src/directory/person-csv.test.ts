/**
 * CSV import and export of person accounts over HTTP on both databases (issue 11): a dry run
 * reports row by row and writes nothing; a real run writes all or nothing; malformed files
 * (bad encoding, missing columns, duplicates in the file and against the realm, 10 MB of
 * garbage) end with a clear report and nothing written; the export streams the filter, is an
 * attachment and defuses formulas.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { parseCsv } from '../platform/csv.js';
import { describeBothDbs } from '../test/harness.js';
import { as, createPerson, createRealm, randomEmail, signIn, type RequestOptions } from '../test/kit.js';
import { accountEvents, personCount, personsPath, roleHolder, seedPersons, uniqueMobile } from './person.testkit.js';

const CSV = { headers: { 'content-type': 'text/csv' } } satisfies RequestOptions;

describeBothDbs('person accounts: CSV import and export', (h) => {
  const importCsv = async (token: string, realmId: string, body: string | Buffer, dryRun: boolean) => {
    const res = await as(h(), token).post(`${personsPath(realmId)}/import${dryRun ? '?dryRun=1' : ''}`, body as string, CSV);
    return res;
  };

  it('a dry run reports bad rows (field and error, by row and line) and writes nothing; the real run of a clean file writes every row', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const m1 = uniqueMobile();
    const csv = [
      'userName,email,phone,password',
      `imp_alice,alice.${m1}@example.test,${m1},Import-Pass-7781`,
      'x,bad-email,123,',
      `imp_bob,,'+86${uniqueMobile()},`,
      'imp_carol,"carol@example.test",,',
    ].join('\r\n');
    const dry = await importCsv(token, realmId, csv, true);
    expect(dry.status).toBe(200);
    expect(dry.body.data).toEqual({
      dryRun: true,
      rows: 4,
      valid: 3,
      created: 0,
      errorCount: 3,
      errors: [
        { row: 2, line: 3, field: 'userName', error: 'invalid' },
        { row: 2, line: 3, field: 'email', error: 'invalid' },
        { row: 2, line: 3, field: 'phone', error: 'invalid' },
      ],
    });
    expect(await personCount(h(), realmId)).toBe(1);

    const refused = await importCsv(token, realmId, csv, false);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 1041, errData: { dryRun: false, created: 0, errorCount: 3 } });
    expect(await personCount(h(), realmId)).toBe(1);

    const clean = csv
      .split('\r\n')
      .filter((l) => !l.startsWith('x,'))
      .join('\n');
    const done = await importCsv(token, realmId, clean, false);
    expect(done.body.data).toMatchObject({ dryRun: false, rows: 3, valid: 3, created: 3, errorCount: 0 });
    expect(await personCount(h(), realmId)).toBe(4);
    const alice = await h().ctx.repos.accounts.findAccountByUsername(realmId, 'imp_alice');
    expect(alice).toMatchObject({ phone: `+86${m1}`, force_password: 1 });
    expect((await signIn(h(), { username: 'imp_alice', password: 'Import-Pass-7781', realmId })).status).toBe(200);
    expect((await accountEvents(h(), realmId)).at(-1)).toMatchObject({ action: 'account.import', detail: { count: 3 } });
  });

  it('duplicates within the file and against the realm are row-level errors naming the first row; nothing is written', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const existing = await createPerson(h(), { realmId, email: randomEmail() });
    const csv = [
      'UserName,Email,Phone',
      'dup_one,one@example.test,',
      'DUP_ONE,other@example.test,',
      'dup_two,ONE@example.test,',
      `${existing.username},,`,
      `dup_three,${existing.row.email},`,
    ].join('\n');
    for (const dryRun of [true, false]) {
      const res = await importCsv(token, realmId, csv, dryRun);
      const report = dryRun ? res.body.data : res.body.errData;
      expect(report.errors).toEqual([
        { row: 2, line: 3, field: 'userName', error: 'duplicate_in_file', firstRow: 1 },
        { row: 3, line: 4, field: 'email', error: 'duplicate_in_file', firstRow: 1 },
        { row: 4, line: 5, field: 'userName', error: 'duplicate_in_db' },
        { row: 5, line: 6, field: 'email', error: 'duplicate_in_db' },
      ]);
      expect(report).toMatchObject({ rows: 5, valid: 1, created: 0 });
    }
    expect(await personCount(h(), realmId)).toBe(2);
  });

  it('1040 with the reason, nothing written: bad UTF-8, no or a short header, unknown columns, broken quoting, 10 MB of garbage; over 10 MB is 1013', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const latin1 = Buffer.concat([Buffer.from('userName,email,phone\nj'), Buffer.from([0xfc]), Buffer.from('rgen,,\n')]);
    const garbage = crypto.randomBytes(7_000_000).toString('base64').slice(0, 9_500_000);
    const cases: [string | Buffer, Record<string, unknown>][] = [
      [latin1, { reason: 'encoding' }],
      [crypto.randomBytes(1_000_000), { reason: 'encoding' }],
      ['', { reason: 'empty' }],
      ['userName,email\nabc,', { reason: 'missing_columns', columns: ['phone'] }],
      ['userName,email,phone,role\nabc,,,admin', { reason: 'unknown_columns', columns: ['role'] }],
      ['userName,email,phone\n"abc,,\n', { reason: 'malformed', line: 2 }],
      [garbage, { reason: 'unknown_columns' }],
    ];
    for (const [body, errData] of cases) {
      const res = await importCsv(token, realmId, body, true);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 1040, error: 'csv_invalid', errData });
    }
    const tooBig = await importCsv(token, realmId, Buffer.alloc(10 * 1024 * 1024 + 10, 'a'), false);
    expect(tooBig.body).toMatchObject({ code: 1013 });
    const json = await as(h(), token).post(`${personsPath(realmId)}/import`, { rows: [] });
    expect(json.body).toMatchObject({ code: 1040, errData: { reason: 'content_type' } });
    expect(await personCount(h(), realmId)).toBe(1);
  });

  it('rows with the wrong number of cells and rejected passwords are reported', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const res = await importCsv(token, realmId, 'userName,email,phone,password\nok_one,,,\ntoo_many,,,,x\nshort,\nweak_pw,,,123456\n', true);
    expect(res.body.data.errors).toEqual([
      { row: 2, line: 3, field: 'row', error: 'cell_count' },
      { row: 3, line: 4, field: 'row', error: 'cell_count' },
      { row: 4, line: 5, field: 'password', error: 'password_rejected' },
    ]);
  });

  it('imports thousands of rows in one call', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const lines = ['userName,email,phone', ...Array.from({ length: 3000 }, (_, i) => `many_${i},many_${i}@example.test,`)];
    const res = await importCsv(token, realmId, lines.join('\n'), false);
    expect(res.body.data).toMatchObject({ created: 3000, errorCount: 0 });
    expect(await personCount(h(), realmId)).toBe(3001);
    const list = async (query: string) =>
      (await as(h(), token).get(`${personsPath(realmId)}?${query}`)).body.data as { items: { username: string }[]; total: number };
    // oldest first, one import's accounts come in the file's order (they share one creation time)
    const oldest = await list('q=many_&field=username&sort=created&order=asc&limit=5');
    expect(oldest.items.map((i) => i.username)).toEqual(['many_0', 'many_1', 'many_2', 'many_3', 'many_4']);
    // found by the contains search at once: many_29, many_290…299, many_2900…2999
    expect((await list('q=ny_29&field=username&match=contains&limit=5')).total).toBe(111);
    if (h().dialect === 'postgres') {
      // a bulk insert merges what it left in the trigram indexes' pending lists before its commit
      // (accounts.gin-pending.ts): nothing is left for the next sign-up to merge or a search to read
      const { rows } = await sql<{ pages: number }>`select gin_clean_pending_list(i.indexrelid)::int as pages from pg_index i
        join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
        where i.indrelid = 'accounts'::regclass and am.amname = 'gin'`.execute(h().ctx.db);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((r) => r.pages)).toEqual(rows.map(() => 0));
    }
  });

  it('the export is a CSV attachment of the current filter, every row once, formulas defused (A-41), and is recorded with its count', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    await seedPersons(h(), realmId, 2500, (i) => ({ username: `exp_${i}`, disabled: i % 2 === 0 }));
    await createPerson(h(), { realmId, username: 'formula_user', email: '=HYPERLINK("http://evil.test")@x.test', phone: '+8613811112222' });
    const res = await as(h(), token).get(`${personsPath(realmId)}/export.csv?status=enabled`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="accounts-${realmId}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    const records = [...parseCsv(res.text)].map((r) => r.cells);
    expect(records[0]).toEqual(['id', 'userName', 'email', 'phone', 'disabled', 'activated', 'registArea', 'createdAt', 'lastLoginAt']);
    // Enabled ones only: half of the 2500, the realm-admin and the formula user.
    expect(records.length - 1).toBe(1252);
    expect(new Set(records.slice(1).map((r) => r[0])).size).toBe(1252);
    const formula = records.find((r) => r[1] === 'formula_user')!;
    expect(formula[2]).toBe(`'=HYPERLINK("http://evil.test")@x.test`);
    expect(formula[3]).toBe(`'+8613811112222`);
    expect(res.text).not.toMatch(/argon2/);
    expect((await accountEvents(h(), realmId)).at(-1)).toMatchObject({ action: 'account.export', result: 'ok', detail: { count: 1252 } });
  });

  it('A-38: import and export need person.import / person.export in that realm; a realm-viewer is refused and nothing is written', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-viewer');
    const imp = await importCsv(token, realmId, 'userName,email,phone\nviewer_try,,\n', false);
    expect(imp.body).toMatchObject({ code: 1003, errData: { resource: 'person', perm: 'import' } });
    const exp = await as(h(), token).get(`${personsPath(realmId)}/export.csv`);
    expect(exp.body).toMatchObject({ code: 1003, errData: { resource: 'person', perm: 'export' } });
    const other = await roleHolder(h(), await createRealm(h()), 'realm-admin');
    expect((await importCsv(other.token, realmId, 'userName,email,phone\nx_try,,\n', false)).body).toMatchObject({ code: 1003 });
    expect(await personCount(h(), realmId)).toBe(1);
  });
});

describeBothDbs('person accounts: parallel writers (issue 11)', (h) => {
  it('60 parallel creations of one user name: exactly one account, the others 1205, never a 500', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const before = await personCount(h(), realmId);
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => as(h(), token).post(personsPath(realmId), { username: 'race_same', password: 'Race-Pass-4471' })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(new Set(answers.filter((r) => r.status !== 200).map((r) => r.body.code))).toEqual(new Set([1205]));
    expect(await personCount(h(), realmId)).toBe(before + 1);
  });

  it('the same CSV imported 8 times at once: its rows are written once, the other imports write nothing and say why', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const before = await personCount(h(), realmId);
    const csv = ['userName,email,phone,password', ...Array.from({ length: 50 }, (_, i) => `race_csv_${i},,,`)].join('\r\n');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => as(h(), token).post(`${personsPath(realmId)}/import`, csv, { headers: { 'content-type': 'text/csv' } })),
    );
    expect(answers.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await personCount(h(), realmId)).toBe(before + 50);
  });

  it('two large CSVs (2,000 rows: the bulk path) each imported twice at once: each file written once, the repeats write nothing, no deadlock, never a 500', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const before = await personCount(h(), realmId);
    const file = (tag: string) =>
      ['userName,email,phone', ...Array.from({ length: 2000 }, (_, i) => `bulk_${tag}_${i},bulk_${tag}_${i}@example.test,`)].join('\n');
    const files = [file('a'), file('b'), file('a'), file('b')];
    const answers = await Promise.all(files.map((csv) => as(h(), token).post(`${personsPath(realmId)}/import`, csv, CSV)));
    expect(answers.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    expect(answers.filter((r) => r.status === 200).map((r) => r.body.data.created)).toEqual([2000, 2000]);
    expect(await personCount(h(), realmId)).toBe(before + 4000);
  });
});
