/**
 * Reading person accounts by the page (issue 11): keyset paging on (sort key, id), prefix or
 * "contains" search on user name / email / phone / id, filters, and a total counted only up
 * to a cap. Read-only: accounts.repo.ts (which spreads these functions into the account
 * repository) stays the one writer of `accounts`.
 *
 * Why keyset and ranges (migration 0017): a page at any depth is one index range scan of
 * `limit + 1` rows, where OFFSET would walk every row before it. Text keys are compared in
 * byte order on both databases (PostgreSQL: collate "C", the indexes' collation; SQLite:
 * BINARY), so a page boundary and a prefix mean the same thing on both.
 */
import { PostgresAdapter, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database, Db } from '../platform/db.js';
import type { AccountTable } from './accounts.tables.js';

export type PersonSort = 'created' | 'username';
export type PersonSearchField = 'any' | 'username' | 'email' | 'phone' | 'id';

export interface PersonFilter {
  realmId: string;
  q?: string | undefined;
  field?: PersonSearchField | undefined;
  match?: 'prefix' | 'contains' | undefined;
  disabled?: boolean | undefined;
  activated?: boolean | undefined;
  /** registration time, epoch ms: from inclusive, to exclusive */
  createdFrom?: number | undefined;
  createdTo?: number | undefined;
}

export interface PersonPageQuery extends PersonFilter {
  sort: PersonSort;
  order: 'asc' | 'desc';
  /** rows to read (the caller asks one more than it shows, to know whether more follow) */
  limit: number;
  /** the boundary row's sort value and id: rows strictly after it (or before it, `backwards`) */
  after?: { value: string | number; id: string } | undefined;
  backwards?: boolean | undefined;
}

/** The columns a list shows: never the password hash. */
export const PERSON_LIST_COLUMNS = [
  'id',
  'username',
  'username_norm',
  'email',
  'phone',
  'disabled',
  'activated',
  'force_password',
  'regist_area',
  'created_at',
  'last_login_at',
] as const satisfies readonly (keyof AccountTable)[];
export type PersonListRow = Pick<AccountTable, (typeof PERSON_LIST_COLUMNS)[number]>;

/** NFKC + lower case + trim, as accounts.repo.ts folds names and addresses (kept in step by its test). */
const fold = (value: string) => value.normalize('NFKC').toLowerCase().normalize('NFKC').trim();

/**
 * The smallest string greater than every string that starts with `prefix`, in code point (=
 * UTF-8 byte) order: the last code point plus one. undefined when there is none (a prefix of
 * U+10FFFF only), and then the range has no upper end.
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix];
  while (points.length) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      // Skip the surrogate block: those code points never occur alone in stored text.
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return points.join('') + String.fromCodePoint(next);
    }
  }
  return undefined;
}

/** The phone forms a typed number may start as: E.164 as typed, else +86 (the default region) or + and the digits. */
export function phonePrefixes(q: string): string[] {
  const typed = q.normalize('NFKC').replace(/[\s-]/g, '');
  if (/^\+\d*$/.test(typed)) return typed.length > 1 ? [typed] : [];
  if (!/^\d+$/.test(typed)) return [];
  return [`+86${typed}`, `+${typed}`];
}

type Eb = ExpressionBuilder<Database, 'accounts'>;
type TextColumn = 'username_norm' | 'email_norm' | 'phone' | 'id';

export function accountListQueries(db: Db) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  /** A text column as the indexes order it. */
  const text = (column: TextColumn) => (pg ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`);

  function range(eb: Eb, column: TextColumn, prefix: string): Expression<SqlBool> {
    const end = prefixEnd(prefix);
    const from = eb(text(column), '>=', prefix);
    return end === undefined ? from : eb.and([from, eb(text(column), '<', end)]);
  }

  function contains(eb: Eb, column: TextColumn, part: string): Expression<SqlBool> {
    // The user's text is searched as typed: '%' and '_' are literal.
    const like = `%${part.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return eb(sql.ref(column), 'like', sql<string>`${like} escape '\\'`);
  }

  function search(eb: Eb, f: PersonFilter): Expression<SqlBool> {
    const q = f.q ?? '';
    const field = f.field ?? 'any';
    const want = (x: PersonSearchField) => field === 'any' || field === x;
    const match = f.match === 'contains' ? contains : range;
    const folded = fold(q);
    const parts: Expression<SqlBool>[] = [];
    if (want('username')) parts.push(match(eb, 'username_norm', folded));
    if (want('email')) parts.push(match(eb, 'email_norm', folded));
    if (want('phone')) {
      if (f.match === 'contains') {
        const digits = q.normalize('NFKC').replace(/[\s-]/g, '');
        if (/^\+?\d+$/.test(digits)) parts.push(contains(eb, 'phone', digits));
      } else for (const p of phonePrefixes(q)) parts.push(range(eb, 'phone', p));
    }
    // Ids are lower-case letters and digits (platform/crypto.ts newId).
    if (want('id') && /^[a-z0-9]+$/.test(folded)) parts.push(match(eb, 'id', folded));
    // Text that can be none of the fields asked for matches nothing.
    return parts.length ? eb.or(parts) : sql<SqlBool>`1 = 0`;
  }

  function filtered(trx: Db, f: PersonFilter) {
    let s = trx.selectFrom('accounts').where('realm_id', '=', f.realmId).where('kind', '=', 'person');
    if (f.disabled !== undefined) s = s.where('disabled', '=', f.disabled ? 1 : 0);
    if (f.activated !== undefined) s = s.where('activated', '=', f.activated ? 1 : 0);
    if (f.createdFrom !== undefined) s = s.where('created_at', '>=', f.createdFrom);
    if (f.createdTo !== undefined) s = s.where('created_at', '<', f.createdTo);
    if (f.q) s = s.where((eb) => search(eb, f));
    return s;
  }

  return {
    /**
     * One page in the order asked (`backwards`: the rows before `after`, still answered in
     * the order asked). Ties on the sort key are broken by id, so no row is skipped or repeated.
     */
    async listPersons(q: PersonPageQuery, trx: Db = db): Promise<PersonListRow[]> {
      const key = q.sort === 'username' ? text('username_norm') : sql<number>`${sql.ref('created_at')}`;
      const ascending = (q.order === 'asc') !== Boolean(q.backwards);
      let s = filtered(trx, q).select(PERSON_LIST_COLUMNS);
      if (q.after) {
        const op = sql.raw(ascending ? '>' : '<');
        s = s.where(sql<SqlBool>`(${key}, ${text('id')}) ${op} (${q.after.value}, ${q.after.id})`);
      }
      const direction = sql.raw(ascending ? 'asc' : 'desc');
      const rows = await s
        .orderBy(sql`${key} ${direction}`)
        .orderBy(sql`${text('id')} ${direction}`)
        .limit(q.limit)
        .execute();
      return q.backwards ? rows.reverse() : rows;
    },

    /** The number of matching persons, counted no further than `cap + 1` (a total beyond the cap is not worth its time). */
    async countPersonsUpTo(f: PersonFilter, cap: number, trx: Db = db): Promise<number> {
      const inner = filtered(trx, f)
        .select(sql.lit(1).as('one'))
        .limit(cap + 1);
      const row = await trx
        .selectFrom(inner.as('capped'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Person accounts of the realm among `ids` (others' ids and service accounts are not found). */
    findPersonsByIds(realmId: string, ids: readonly string[], trx: Db = db): Promise<PersonListRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return trx
        .selectFrom('accounts')
        .select(PERSON_LIST_COLUMNS)
        .where('realm_id', '=', realmId)
        .where('kind', '=', 'person')
        .where('id', 'in', ids)
        .execute();
    },

    /**
     * Which of these user names / emails (folded) and phones (E.164) an account of the realm
     * already holds: the unique indexes' view, so service accounts count too.
     */
    async findTakenAddresses(
      realmId: string,
      want: { usernames: readonly string[]; emails: readonly string[]; phones: readonly string[] },
      trx: Db = db,
    ): Promise<{ usernames: Set<string>; emails: Set<string>; phones: Set<string> }> {
      const out = { usernames: new Set<string>(), emails: new Set<string>(), phones: new Set<string>() };
      const CHUNK = 500;
      const lookups = [
        ['username_norm', want.usernames, out.usernames],
        ['email_norm', want.emails, out.emails],
        ['phone', want.phones, out.phones],
      ] as const;
      for (const [column, values, into] of lookups) {
        for (let i = 0; i < values.length; i += CHUNK) {
          const chunk = values.slice(i, i + CHUNK);
          const rows = await trx.selectFrom('accounts').select(column).where('realm_id', '=', realmId).where(column, 'in', chunk).execute();
          for (const r of rows) {
            const v = (r as Record<string, string | null>)[column];
            if (v) into.add(v);
          }
        }
      }
      return out;
    },
  };
}

export type AccountListQueries = ReturnType<typeof accountListQueries>;
