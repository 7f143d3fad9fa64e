/**
 * SQL for accounts: the one module that writes the `accounts` table (issue 9). Person and
 * service accounts are inserted here with their defaults, names and addresses are folded
 * here, and every other area finds, updates and lists accounts through these functions.
 * Every read and write is scoped to a realm (SECURITY.md design rules); each takes an
 * optional transaction as its last argument.
 */
import { CompiledQuery, PostgresAdapter, sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { newId } from '../platform/crypto.js';
import type { Db } from '../platform/db.js';
import { prepare } from '../platform/prepared.js';
import { ginFlushPending, ginPendingInBulk, PG_GIN_BULK_MIN } from './accounts.gin-pending.js';
import { accountListQueries } from './accounts.list.repo.js';
import { serviceAccountQueries } from './accounts.service-accounts.repo.js';
import { accountTallyQueries } from './accounts.tallies.repo.js';
import type { AccountTable } from './accounts.tables.js';

export type Account = Selectable<AccountTable>;
export type AccountKind = AccountTable['kind'];

/**
 * The one form user names and email addresses are compared in (issue 8): NFKC, so fullwidth
 * and compatibility look-alikes ('ｋ', the Kelvin sign 'K') fold onto their plain letters,
 * then lower case (NFKC again: lower-casing can leave a non-NFKC sequence), then trimmed.
 * Uniqueness checks and lookups both go through these, so a look-alike finds the account it
 * imitates instead of registering a second one.
 */
function fold(value: string): string {
  // ASCII is its own NFKC form, and stays ASCII lower-cased: two normalisations spared (a CSV
  // import folds every name and address of its file, 100,000 rows).
  if (ASCII.test(value)) return value.toLowerCase().trim();
  return value.normalize('NFKC').toLowerCase().normalize('NFKC').trim();
}
const ASCII = /^[\x00-\x7f]*$/;

export const normaliseUsername = (username: string): string => fold(username);
export const normaliseEmail = (email: string): string => fold(email);

export interface NewPerson {
  /** default a new id; an IT-interface backend's user id when its realm has useOriginID (issue 14) */
  id?: string | undefined;
  realmId: string;
  username: string;
  /** an argon2 hash (auth/passwords.ts); null: no password sign-in */
  passwordHash: string | null;
  email?: string | null | undefined;
  /** E.164 (accounts/phone.ts) */
  phone?: string | null | undefined;
  /** default true; false: an email registration waiting for its activation link */
  activated?: boolean | undefined;
  disabled?: boolean | undefined;
  /** the password must be changed at the next sign-in (SPEC §3 force_password; an administrator set it) */
  forcePassword?: boolean | undefined;
  /** country calling code the account registered from (SPEC §3 "registration area") */
  registArea?: string | undefined;
  now: number;
}

export interface NewService {
  owner: Pick<Account, 'id' | 'realm_id' | 'username'>;
  /** the part after `owner/` (DESIGN.md §4) */
  subname: string;
  passwordHash: string;
  /** the service account must set its own password at first sign-in (SPEC §3 force_password) */
  forcePassword?: boolean | undefined;
  now: number;
}

export interface AccountListQuery {
  kind?: AccountKind | undefined;
  /** part of the user name, email or phone */
  q?: string | undefined;
  limit: number;
  offset: number;
}

function personRow(p: NewPerson): Insertable<AccountTable> {
  return {
    id: p.id ?? newId(),
    realm_id: p.realmId,
    kind: 'person',
    owner_id: null,
    username: p.username,
    username_norm: normaliseUsername(p.username),
    email: p.email ?? null,
    email_norm: p.email ? normaliseEmail(p.email) : null,
    phone: p.phone ?? null,
    password_hash: p.passwordHash,
    avatar: '',
    disabled: p.disabled ? 1 : 0,
    activated: p.activated === false ? 0 : 1,
    force_password: p.forcePassword ? 1 : 0,
    regist_area: p.registArea ?? '',
    last_login_at: null,
    last_login_area: '',
    created_at: p.now,
    updated_at: p.now,
  };
}

/** The columns of a person row, in the order the bulk insert binds them (insertPersons). */
const PERSON_COLUMNS = [
  'id',
  'realm_id',
  'kind',
  'owner_id',
  'username',
  'username_norm',
  'email',
  'email_norm',
  'phone',
  'password_hash',
  'avatar',
  'disabled',
  'activated',
  'force_password',
  'regist_area',
  'last_login_at',
  'last_login_area',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof AccountTable)[];
/** PostgreSQL array types of those columns, for unnest. */
const PG_ARRAY_TYPES: Record<(typeof PERSON_COLUMNS)[number], string> = {
  ...(Object.fromEntries(PERSON_COLUMNS.map((c) => [c, 'text[]'])) as Record<(typeof PERSON_COLUMNS)[number], string>),
  disabled: 'int[]',
  activated: 'int[]',
  force_password: 'int[]',
  last_login_at: 'bigint[]',
  created_at: 'bigint[]',
  updated_at: 'bigint[]',
};
/** SQLite: rows per INSERT (19 parameters a row, under its 32,766); PostgreSQL: rows per unnest (one array a column). */
const SQLITE_BATCH = 500;
const PG_BATCH = 10_000;
const sqliteInsert = (rows: number) =>
  `insert into accounts (${PERSON_COLUMNS.join(', ')}) values ${Array.from({ length: rows }, () => `(${PERSON_COLUMNS.map(() => '?').join(', ')})`).join(', ')}`;
const SQLITE_INSERT = sqliteInsert(SQLITE_BATCH);
const isPostgres = (trx: Db) => trx.getExecutor().adapter instanceof PostgresAdapter;

function serviceRow(s: NewService): Insertable<AccountTable> {
  const username = `${s.owner.username}/${s.subname}`;
  return {
    ...personRow({ realmId: s.owner.realm_id, username, passwordHash: s.passwordHash, now: s.now }),
    kind: 'service',
    owner_id: s.owner.id,
    force_password: s.forcePassword ? 1 : 0,
  };
}

export function createAccountRepo(db: Db) {
  const byId = (trx: Db, realmId: string, id: string) => trx.updateTable('accounts').where('realm_id', '=', realmId).where('id', '=', id);
  const updatedOne = (res: { numUpdatedRows: bigint }) => Number(res.numUpdatedRows) === 1;
  // every sign-in writes its time and area: built once (platform/prepared.ts)
  const signedIn = prepare<{ realm: string; id: string; at: number; area: string }>(db, (p) =>
    db
      .updateTable('accounts')
      .set({ last_login_at: p('at'), last_login_area: p('area') })
      .where('realm_id', '=', p('realm'))
      .where('id', '=', p('id')),
  );
  const signedInAt = prepare<{ realm: string; id: string; at: number }>(db, (p) =>
    db
      .updateTable('accounts')
      .set({ last_login_at: p('at') })
      .where('realm_id', '=', p('realm'))
      .where('id', '=', p('id')),
  );

  function filtered(trx: Db, realmId: string, q: Omit<AccountListQuery, 'limit' | 'offset'>) {
    let s = trx.selectFrom('accounts').where('realm_id', '=', realmId);
    if (q.kind) s = s.where('kind', '=', q.kind);
    if (q.q) {
      // LIKE with the user's text escaped: a '%' typed is a '%' searched.
      const like = `%${fold(q.q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      s = s.where((eb) =>
        eb.or([
          eb('username_norm', 'like', sql<string>`${like} escape '\\'`),
          eb('email_norm', 'like', sql<string>`${like} escape '\\'`),
          eb('phone', 'like', sql<string>`${like} escape '\\'`),
        ]),
      );
    }
    return s;
  }

  return {
    /** A person account with the defaults (new id, enabled, activated, no avatar); answers the row. */
    async insertPerson(p: NewPerson, trx: Db = db): Promise<Account> {
      const row = personRow(p);
      await trx.insertInto('accounts').values(row).execute();
      return row as Account;
    },
    /** A service account `owner/subname` of `owner`'s realm; answers the row. */
    async insertService(s: NewService, trx: Db = db): Promise<Account> {
      const row = serviceRow(s);
      await trx.insertInto('accounts').values(row).execute();
      return row as Account;
    },
    findAccountById(realmId: string, id: string, trx: Db = db): Promise<Account | undefined> {
      return trx.selectFrom('accounts').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
    },
    /** Service accounts are found as `owner/subname`. */
    findAccountByUsername(realmId: string, username: string, trx: Db = db): Promise<Account | undefined> {
      return trx.selectFrom('accounts').selectAll().where('realm_id', '=', realmId).where('username_norm', '=', normaliseUsername(username)).executeTakeFirst();
    },
    findAccountByEmail(realmId: string, email: string, trx: Db = db): Promise<Account | undefined> {
      return trx.selectFrom('accounts').selectAll().where('realm_id', '=', realmId).where('email_norm', '=', normaliseEmail(email)).executeTakeFirst();
    },
    /** `phone` in E.164, as accounts/phone.ts produces it */
    findAccountByPhone(realmId: string, phone: string, trx: Db = db): Promise<Account | undefined> {
      return trx.selectFrom('accounts').selectAll().where('realm_id', '=', realmId).where('phone', '=', phone).executeTakeFirst();
    },
    /** Newest first; `q` matches part of the user name, email or phone. */
    listAccounts(realmId: string, q: AccountListQuery, trx: Db = db): Promise<Account[]> {
      return filtered(trx, realmId, q).selectAll().orderBy('created_at', 'desc').orderBy('id').limit(q.limit).offset(q.offset).execute();
    },
    async countAccounts(realmId: string, q: Omit<AccountListQuery, 'limit' | 'offset'> = {}, trx: Db = db): Promise<number> {
      const row = await filtered(trx, realmId, q)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** A sign-in's time, and its login area when it named one (SPEC §3 last login time and area). */
    async recordSignIn(realmId: string, id: string, at: number, area?: string, trx: Db = db): Promise<void> {
      if (area === undefined) await signedInAt.run({ realm: realmId, id, at }, trx);
      else await signedIn.run({ realm: realmId, id, at, area }, trx);
    },
    async updateAccount(realmId: string, id: string, patch: Updateable<AccountTable>, trx: Db = db): Promise<boolean> {
      return updatedOne(await byId(trx, realmId, id).set(patch).executeTakeFirst());
    },
    /** A new user name for a person account, and `new/sub` for each of its service accounts. */
    async renameAccount(realmId: string, id: string, oldNorm: string, username: string, now: number, trx: Db = db): Promise<void> {
      const norm = normaliseUsername(username);
      await byId(trx, realmId, id).set({ username, username_norm: norm, updated_at: now }).execute();
      const prefix = `${oldNorm}/`;
      await trx
        .updateTable('accounts')
        .set({
          username_norm: sql<string>`cast(${norm + '/'} as varchar(120)) || substr(username_norm, cast(${prefix.length + 1} as integer))`,
          updated_at: now,
        })
        .where('realm_id', '=', realmId)
        .where('owner_id', '=', id)
        .where('kind', '=', 'service')
        .execute();
    },
    /** A new password also ends a forced change (SPEC §3 force_password). */
    async setPassword(realmId: string, id: string, passwordHash: string, now: number, trx: Db = db): Promise<boolean> {
      return updatedOne(await byId(trx, realmId, id).set({ password_hash: passwordHash, force_password: 0, updated_at: now }).executeTakeFirst());
    },
    /** A recovered password also clears a pending forced change; proving the mailbox activates. */
    async setRecoveredPassword(realmId: string, id: string, passwordHash: string, now: number, activate: boolean, trx: Db = db): Promise<boolean> {
      const patch = { password_hash: passwordHash, force_password: 0, updated_at: now, ...(activate ? { activated: 1 } : {}) };
      return updatedOne(await byId(trx, realmId, id).set(patch).executeTakeFirst());
    },
    async activateAccount(realmId: string, id: string, now: number, trx: Db = db): Promise<boolean> {
      return updatedOne(await byId(trx, realmId, id).set({ activated: 1, updated_at: now }).executeTakeFirst());
    },
    /** Binds (or with null unbinds) the email or phone; the unique indexes refuse a taken one. */
    async setAddress(realmId: string, id: string, channel: 'email' | 'sms', value: string | null, now: number, trx: Db = db): Promise<void> {
      const patch = channel === 'email' ? { email: value, email_norm: value === null ? null : normaliseEmail(value) } : { phone: value };
      await byId(trx, realmId, id)
        .set({ ...patch, updated_at: now })
        .execute();
    },
    async setAvatarUrl(realmId: string, id: string, avatar: string, now: number, trx: Db = db): Promise<void> {
      await byId(trx, realmId, id).set({ avatar, updated_at: now }).execute();
    },

    // ─── person account administration (issue 11; directory/person-*.ts) ─────────────
    ...accountListQueries(db),
    // exact person totals from the tallies triggers keep (migration 0037)
    ...accountTallyQueries(db),
    // service (sub) accounts of one owner (issue 11; directory/service-accounts.*)
    ...serviceAccountQueries(db),
    /**
     * Many person accounts (CSV import, 100,000 rows): all rows or, in the caller's transaction,
     * none. The SQL is written here, not built by Kysely from 100,000 row objects (about a
     * second of the server's CPU). PostgreSQL takes each column's values as one array (unnest:
     * 19 parameters a batch of 10,000 rows instead of 19 a row, about a quarter less of the
     * database's CPU than multi-row VALUES); SQLite runs one 500-row INSERT over and over (db.ts
     * keeps it prepared), the last rows in a statement of their own.
     */
    async insertPersons(people: readonly NewPerson[], trx: Db = db): Promise<number> {
      if (isPostgres(trx)) {
        const casts = PERSON_COLUMNS.map((c) => sql.raw(`::${PG_ARRAY_TYPES[c]}`));
        const bulk = trx.isTransaction && people.length >= PG_GIN_BULK_MIN && (await ginPendingInBulk(trx));
        for (let i = 0; i < people.length; i += PG_BATCH) {
          const rows = people.slice(i, i + PG_BATCH).map(personRow);
          const arrays = PERSON_COLUMNS.map((c, k) => sql`${rows.map((r) => r[c] ?? null)}${casts[k]}`);
          await sql`insert into accounts (${sql.join(PERSON_COLUMNS.map((c) => sql.ref(c)))}) select * from unnest(${sql.join(arrays)})`.execute(trx);
        }
        if (bulk) await ginFlushPending(trx);
        return people.length;
      }
      for (let i = 0; i < people.length; i += SQLITE_BATCH) {
        const batch = people.slice(i, i + SQLITE_BATCH);
        const params: unknown[] = [];
        for (const p of batch) {
          const row = personRow(p);
          for (const c of PERSON_COLUMNS) params.push(row[c] ?? null);
        }
        await trx.executeQuery(CompiledQuery.raw(batch.length === SQLITE_BATCH ? SQLITE_INSERT : sqliteInsert(batch.length), params));
      }
      return people.length;
    },
    /**
     * Which of these user names / emails (folded) and phones (E.164) an account of the realm
     * already holds — the unique indexes' view, service accounts included — in one statement a
     * column whatever the count (a CSV import asks for 100,000 of each): the values go as one
     * array (PostgreSQL) or one JSON array (SQLite's json_each), not as chunks of IN lists.
     */
    async findTakenKeys(
      realmId: string,
      want: { usernames: readonly string[]; emails: readonly string[]; phones: readonly string[] },
      trx: Db = db,
    ): Promise<{ usernames: Set<string>; emails: Set<string>; phones: Set<string> }> {
      const out = { usernames: new Set<string>(), emails: new Set<string>(), phones: new Set<string>() };
      const pg = isPostgres(trx);
      const lookups = [
        ['username_norm', want.usernames, out.usernames],
        ['email_norm', want.emails, out.emails],
        ['phone', want.phones, out.phones],
      ] as const;
      for (const [column, values, into] of lookups) {
        if (values.length === 0) continue;
        const col = sql.ref(`a.${column}`);
        // PostgreSQL: a join on the unnested array, which the planner may answer by hash or by
        // index probes (`= any(array)` of 100,000 was a filter over every row of the realm).
        // SQLite: IN over json_each, which it answers by index probes (as a join it scanned the realm).
        const from = pg ? sql`unnest(${values}::text[]) as w(v) join accounts a on ${col} = w.v` : sql`accounts a`;
        const among = pg ? sql`` : sql`and ${col} in (select value from json_each(${JSON.stringify(values)}))`;
        const { rows } = await sql<{ v: string | null }>`select ${col} as v from ${from} where a.realm_id = ${realmId} ${among}`.execute(trx);
        for (const r of rows) if (r.v) into.add(r.v);
      }
      return out;
    },
    /**
     * Enables or disables the realm's person accounts among `ids`; answers the ids this statement
     * changed — not those a concurrent delete took first, so callers record only what happened.
     */
    async setPersonsDisabled(realmId: string, ids: readonly string[], disabled: boolean, now: number, trx: Db = db): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await trx
        .updateTable('accounts')
        .set({ disabled: disabled ? 1 : 0, updated_at: now })
        .where('realm_id', '=', realmId)
        .where('kind', '=', 'person')
        .where('id', 'in', ids)
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },
    /**
     * Deletes the realm's person accounts among `ids` (their service accounts, sessions, roles and
     * OTP go by cascade); answers the ids this statement deleted, so two concurrent deletes of one
     * account count it once.
     */
    async deletePersons(realmId: string, ids: readonly string[], trx: Db = db): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await trx
        .deleteFrom('accounts')
        .where('realm_id', '=', realmId)
        .where('kind', '=', 'person')
        .where('id', 'in', ids)
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },
    /** An administrator's temporary password: the account must change it at its next sign-in. */
    async setTemporaryPassword(realmId: string, id: string, passwordHash: string, now: number, trx: Db = db): Promise<boolean> {
      return updatedOne(await byId(trx, realmId, id).set({ password_hash: passwordHash, force_password: 1, updated_at: now }).executeTakeFirst());
    },
    /** Email and/or phone of a person (null unbinds); the unique indexes refuse a taken one. */
    async setPersonAddresses(
      realmId: string,
      id: string,
      patch: { email?: string | null; phone?: string | null },
      now: number,
      trx: Db = db,
    ): Promise<boolean> {
      const set: Updateable<AccountTable> = { updated_at: now };
      if (patch.email !== undefined) Object.assign(set, { email: patch.email, email_norm: patch.email === null ? null : normaliseEmail(patch.email) });
      if (patch.phone !== undefined) set.phone = patch.phone;
      return updatedOne(await byId(trx, realmId, id).where('kind', '=', 'person').set(set).executeTakeFirst());
    },
    /** Realm deletion (issue 11): every account of the realm, service accounts before their owners. */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<number> {
      const services = await trx.deleteFrom('accounts').where('realm_id', '=', realmId).where('kind', '=', 'service').executeTakeFirst();
      const people = await trx.deleteFrom('accounts').where('realm_id', '=', realmId).executeTakeFirst();
      return Number(services.numDeletedRows) + Number(people.numDeletedRows);
    },
  };
}

export type AccountRepo = ReturnType<typeof createAccountRepo>;
