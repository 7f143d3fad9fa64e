/**
 * CSV import of person accounts (issue 11, SPEC §6 `import`): columns userName, email, phone
 * and optionally password, header required, UTF-8 only.
 *
 * A dry run reads and checks every row (format, duplicates within the file and against the
 * realm) and answers a row-level report; it writes nothing. The real import checks again and
 * then writes every row or none: one transaction with the audit event, the duplicate check
 * repeated inside it, the rows inserted in batches (A-45: a process killed half way leaves
 * nothing, because nothing is committed before the last row). Each account created is an
 * account event of its own too (issue 14: a bigdata realm reports it to its data centre), in
 * that transaction, though the audit trail keeps one row for the import.
 */
import {
  EMAIL,
  LIMITS,
  PERSON_IMPORT_COLUMNS,
  PERSON_LIMITS,
  USERNAME,
  type PersonImportError,
  type PersonImportReport,
  type PersonImportRowError,
} from '@umbo/contracts';
import { normaliseEmail, normaliseUsername, type AccountRepo, type NewPerson } from '../accounts/accounts.repo.js';
import { passwordProblem } from '../accounts/password-policy.js';
import type { AuditInput, AuditService } from '../audit/audit.service.js';
import { hashPassword } from '../auth/passwords.js';
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/crypto.js';
import { isUniqueViolation, type Db, type Transact } from '../platform/db.js';
import { fail } from '../platform/errors.js';
import { CsvSyntaxError, parseCsv } from '../platform/csv.js';
import type { AdminCall } from './person-admin.service.js';
import { phoneE164 } from './person-admin.service.js';

type Column = (typeof PERSON_IMPORT_COLUMNS)[number];

interface Row {
  row: number;
  line: number;
  username: string;
  email: string | null;
  phone: string | null;
  password: string | null;
  /** folded once (normaliseUsername / normaliseEmail): the duplicate checks compare these */
  usernameKey: string;
  emailKey: string | null;
}

export interface PersonImportDeps {
  accounts: Pick<AccountRepo, 'findTakenKeys' | 'insertPersons'>;
  audit: Pick<AuditService, 'record'>;
  /** Told, after the import's audit event and in its transaction, of every account it created (bigdata.events.ts). */
  accountsCreated(e: AuditInput, accounts: readonly { id: string; username: string }[], trx: Db): Promise<void>;
  realmPasswordMin(realmId: string): Promise<number>;
  clock: Clock;
  transact: Transact;
}

/** argon2id runs on libuv's pool: a few at a time keep the rest of the server answering. */
const HASH_CONCURRENCY = 2;

function decode(body: Buffer): string {
  try {
    // fatal: a byte sequence that is not UTF-8 is refused, never replaced by U+FFFD.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    throw fail('CSV_INVALID', { reason: 'encoding' });
  }
}

/** The header: each known column once (names compared without case), the required ones present. */
function readHeader(cells: string[]): Map<Column, number> {
  const byName = new Map(PERSON_IMPORT_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const columns = new Map<Column, number>();
  const unknown: string[] = [];
  cells.forEach((raw, i) => {
    const name = byName.get(raw.trim().toLowerCase());
    if (!name || columns.has(name)) unknown.push(raw.trim().slice(0, 40));
    else columns.set(name, i);
  });
  if (unknown.length) throw fail('CSV_INVALID', { reason: 'unknown_columns', line: 1, columns: unknown.slice(0, 10) });
  const missing = PERSON_IMPORT_COLUMNS.filter((c) => c !== 'password' && !columns.has(c));
  if (missing.length) throw fail('CSV_INVALID', { reason: 'missing_columns', line: 1, columns: missing });
  return columns;
}

function rowError(errors: PersonImportRowError[], row: number, line: number, field: string, error: PersonImportError, firstRow?: number): void {
  errors.push({ row, line, field, error, ...(firstRow ? { firstRow } : {}) });
}

export function createPersonImportService(deps: PersonImportDeps) {
  const { accounts, audit, clock, transact } = deps;

  /**
   * Every row read and checked on its own and against the rows above it. One loop that makes
   * no closure per row (the build's keepNames names each closure as it is made) and folds each
   * name once: a third of the time the loop with two closures a row took (100,000 rows).
   */
  function readRows(text: string, passwordMin: number): { rows: Row[]; errors: PersonImportRowError[] } {
    const rows: Row[] = [];
    const errors: PersonImportRowError[] = [];
    const seen = { username: new Map<string, number>(), email: new Map<string, number>(), phone: new Map<string, number>() };
    let columns: Map<Column, number> | undefined;
    let at = { user: -1, email: -1, phone: -1, password: -1 };
    let count = 0;
    try {
      for (const record of parseCsv(text)) {
        if (!columns) {
          columns = readHeader(record.cells);
          at = { user: columns.get('userName')!, email: columns.get('email')!, phone: columns.get('phone')!, password: columns.get('password') ?? -1 };
          continue;
        }
        count++;
        if (count > PERSON_LIMITS.importRowsMax) throw fail('CSV_INVALID', { reason: 'too_many_rows', max: PERSON_LIMITS.importRowsMax });
        const { cells, line } = record;
        if (cells.length !== columns.size) {
          rowError(errors, count, line, 'row', 'cell_count');
          continue;
        }
        const before = errors.length;
        const username = cells[at.user]!.trim();
        if (!username) rowError(errors, count, line, 'userName', 'required');
        else if (!USERNAME.test(username)) rowError(errors, count, line, 'userName', 'invalid');
        const emailText = cells[at.email]!.trim();
        if (emailText && (emailText.length > 254 || !EMAIL.test(emailText))) rowError(errors, count, line, 'email', 'invalid');
        const phoneText = cells[at.phone]!.trim();
        const phone = phoneText ? (phoneE164(phoneText) ?? null) : null;
        if (phoneText && !phone) rowError(errors, count, line, 'phone', 'invalid');
        const password = at.password >= 0 ? cells[at.password]! : '';
        if (password) {
          const tooLong = Buffer.byteLength(password, 'utf8') > LIMITS.passwordMaxBytes;
          if (tooLong || passwordProblem(password, passwordMin)) rowError(errors, count, line, 'password', 'password_rejected');
        }
        if (errors.length > before) continue;
        const email = emailText || null;
        const row: Row = {
          row: count,
          line,
          username,
          email,
          phone,
          password: password || null,
          usernameKey: normaliseUsername(username),
          emailKey: email && normaliseEmail(email),
        };
        let duplicate = false;
        for (const [field, key] of [
          ['userName', row.usernameKey],
          ['email', row.emailKey],
          ['phone', row.phone],
        ] as const) {
          if (!key) continue;
          const map = field === 'userName' ? seen.username : field === 'email' ? seen.email : seen.phone;
          const first = map.get(key);
          if (first !== undefined) {
            rowError(errors, count, line, field, 'duplicate_in_file', first);
            duplicate = true;
          } else map.set(key, count);
        }
        if (!duplicate) rows.push(row);
      }
    } catch (err) {
      if (err instanceof CsvSyntaxError) throw fail('CSV_INVALID', { reason: 'malformed', line: err.line, detail: err.message });
      throw err;
    }
    if (!columns) throw fail('CSV_INVALID', { reason: 'empty' });
    return { rows, errors };
  }

  /** Rows whose user name, email or phone an account of the realm already has. */
  async function takenInRealm(realmId: string, rows: Row[], trx?: Db): Promise<PersonImportRowError[]> {
    const taken = await accounts.findTakenKeys(
      realmId,
      {
        usernames: rows.map((r) => r.usernameKey),
        emails: rows.flatMap((r) => (r.emailKey ? [r.emailKey] : [])),
        phones: rows.flatMap((r) => (r.phone ? [r.phone] : [])),
      },
      trx,
    );
    const errors: PersonImportRowError[] = [];
    for (const r of rows) {
      const at = { row: r.row, line: r.line, error: 'duplicate_in_db' as const };
      if (taken.usernames.has(r.usernameKey)) errors.push({ ...at, field: 'userName' });
      if (r.emailKey && taken.emails.has(r.emailKey)) errors.push({ ...at, field: 'email' });
      if (r.phone && taken.phones.has(r.phone)) errors.push({ ...at, field: 'phone' });
    }
    return errors;
  }

  function report(dryRun: boolean, total: number, errors: PersonImportRowError[], created: number): PersonImportReport {
    const sorted = errors.sort((a, b) => a.row - b.row);
    const badRows = new Set(sorted.map((e) => e.row)).size;
    return { dryRun, rows: total, valid: total - badRows, created, errorCount: sorted.length, errors: sorted.slice(0, PERSON_LIMITS.reportedErrorsMax) };
  }

  async function hashAll(rows: Row[]): Promise<(string | null)[]> {
    const out: (string | null)[] = rows.map(() => null);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < rows.length; i = next++) if (rows[i]!.password) out[i] = await hashPassword(rows[i]!.password!);
    };
    await Promise.all(Array.from({ length: HASH_CONCURRENCY }, worker));
    return out;
  }

  async function importCsv(realmId: string, body: Buffer, dryRun: boolean, call: AdminCall): Promise<PersonImportReport> {
    const passwordMin = await deps.realmPasswordMin(realmId);
    const { rows, errors } = readRows(decode(body), passwordMin);
    const total = rows.length + new Set(errors.map((e) => e.row)).size;
    const hashing = rows.some((r) => r.password);
    // The transaction checks the realm anyway; before it only when the answer is a report (a
    // dry run, a file already refused: every error at once) or spares argon2 work.
    if (dryRun || errors.length || hashing) errors.push(...(await takenInRealm(realmId, rows)));
    if (dryRun) return report(true, total, errors, 0);
    if (errors.length) throw fail('IMPORT_REJECTED', report(false, total, errors, 0));

    const hashes = await hashAll(rows);
    const now = clock.now();
    // Chosen here so the accounts can be named to their events without reading them back; in
    // ascending order down the file, so that the primary key and the list indexes ending in
    // (created_at, id) are filled page after page, while the rows keep the file's order (two
    // imports of one file take their unique keys in one order: no deadlock between them).
    const ids = rows.map(() => newId()).sort();
    const people: NewPerson[] = rows.map((r, i) => ({
      id: ids[i]!,
      realmId,
      username: r.username,
      email: r.email,
      phone: r.phone,
      passwordHash: hashes[i] ?? null,
      // A password chosen by an administrator is a temporary one (SPEC §3 force_password).
      forcePassword: hashes[i] !== null,
      now,
    }));
    try {
      const created = await transact(
        async (trx) => {
          // Checked again in the transaction: another import may have taken a name since.
          const late = await takenInRealm(realmId, rows, trx);
          if (late.length) throw fail('IMPORT_REJECTED', report(false, total, late, 0));
          const n = await accounts.insertPersons(people, trx);
          const event: AuditInput = { realmId, actor: call.actor, action: 'account.import', result: 'ok', request: call.request, detail: { count: n } };
          await audit.record(event, trx);
          await deps.accountsCreated(
            event,
            people.map((p) => ({ id: p.id!, username: p.username })),
            trx,
          );
          return n;
        },
        { large: true },
      );
      return report(false, total, [], created);
    } catch (err) {
      if (isUniqueViolation(err)) throw fail('IMPORT_REJECTED', { reason: 'concurrent_change' });
      throw err;
    }
  }

  return { importCsv };
}

export type PersonImportService = ReturnType<typeof createPersonImportService>;
