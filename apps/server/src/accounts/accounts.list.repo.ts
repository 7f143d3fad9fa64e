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
import { PostgresAdapter, sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database, Db } from '../platform/db.js';
import {
  CONTAINS_MAPPED_COLUMNS,
  CONTAINS_PUNCTUATION,
  CONTAINS_STAND_INS,
  containsMapped,
  type ContainsMappedColumn,
} from '../platform/migrations/0036_account_contains_punctuation.js';
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
  /**
   * The search matches many rows (the caller counted them): read rows in the page's order and
   * test each, rather than gather every match from the search indexes and sort them. With M
   * matches of N rows, the first costs ~limit·N/M rows, the second M index entries.
   */
  common?: boolean | undefined;
  /**
   * Filters without a search (state, activation, registration time) that match few rows (the
   * caller counted them), listed by name: gathered from the filters' index and sorted. The
   * name index holds none of them, so reading it in order tests N/M rows a match (627 of
   * 1,000,000 disabled and not activated: ~32,000 rows for a page, 66 ms warm on SQLite and
   * seconds cold).
   */
  few?: boolean | undefined;
}

/** Filters (state, activation, registration time) and no search text. */
export const filtersOnly = (f: PersonFilter): boolean => !f.q && [f.disabled, f.activated, f.createdFrom, f.createdTo].some((v) => v !== undefined);

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

/** The search text as migration 0036 indexes user names and e-mails: PostgreSQL's translate(), one character for one. */
const mapPunctuation = (text: string) => text.replace(/./gsu, (c) => CONTAINS_STAND_INS[CONTAINS_PUNCTUATION.indexOf(c)] ?? c);
/** Whether the replaced text differs from the text or could match where it does not: punctuation or a stand-in letter. */
const changedByMapping = (text: string) => [...text].some((c) => CONTAINS_PUNCTUATION.includes(c) || CONTAINS_STAND_INS.includes(c));
const isMapped = (column: string): column is ContainsMappedColumn => (CONTAINS_MAPPED_COLUMNS as readonly string[]).includes(column);

type Eb = ExpressionBuilder<Database, 'accounts'>;
/** A page's keys, read apart from its rows: sort key and id. */
type KeysQuery = SelectQueryBuilder<any, any, { k: string | number; id: string }>;
type TextColumn = 'username_norm' | 'email_norm' | 'phone' | 'id';
interface SearchPart {
  column: TextColumn;
  how: 'range' | 'contains';
  value: string;
}

export function accountListQueries(db: Db) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  /** A text column as the indexes order it. */
  const text = (column: TextColumn) => (pg ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`);

  function range(eb: Eb, column: TextColumn, prefix: string, unindexed = false): Expression<SqlBool> {
    const end = prefixEnd(prefix);
    // A common search is read in the page's order: the column's own index must not be used.
    // SQLite's unary + and PostgreSQL's `|| ''` (no-ops on the value) keep the planners off it.
    // PostgreSQL cannot be left to choose: its histogram puts a narrow prefix range such as
    // 'carlos.' at one row, where 4,837 match, so it gathered them all from the search index,
    // each read from the table, and sorted them (~15–27 ms at 1,000,000 accounts, against
    // ~2–3 ms read in order; issue 11 bench).
    const col = !unindexed ? text(column) : pg ? sql<string>`(${sql.ref(column)} || '') collate "C"` : sql<string>`+${sql.ref(column)}`;
    const from = eb(col, '>=', prefix);
    return end === undefined ? from : eb.and([from, eb(col, '<', end)]);
  }

  /** `mapped`: column and text as migration 0036 indexes them (PostgreSQL user names and e-mails). */
  function contains(eb: Eb, column: TextColumn, part: string, unindexed = false, mapped = false): Expression<SqlBool> {
    // The user's text is searched as typed: '%' and '_' are literal.
    const likeOf = (text: string) => sql<string>`${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;
    // PostgreSQL, many matches: `|| ''` (the same value) keeps its planner off the trigram
    // indexes, which it would read whole and sort, when the page's order finds 21 rows sooner.
    const col = unindexed && pg ? sql<string>`(${sql.ref(column)} || '')` : sql.ref(column);
    if (!mapped || !pg || !isMapped(column)) return eb(col, 'like', likeOf(part));
    return eb(containsMapped(column), 'like', likeOf(mapPunctuation(part)));
  }

  /** The search as one condition per field searched (their OR is the search; none: nothing matches). */
  function searchParts(f: PersonFilter): SearchPart[] {
    const q = f.q ?? '';
    const field = f.field ?? 'any';
    const want = (x: PersonSearchField) => field === 'any' || field === x;
    const how = f.match === 'contains' ? 'contains' : 'range';
    const folded = fold(q);
    const parts: SearchPart[] = [];
    if (want('username')) parts.push({ column: 'username_norm', how, value: folded });
    if (want('email')) parts.push({ column: 'email_norm', how, value: folded });
    if (want('phone')) {
      if (f.match === 'contains') {
        const digits = q.normalize('NFKC').replace(/[\s-]/g, '');
        if (/^\+?\d+$/.test(digits)) parts.push({ column: 'phone', how, value: digits });
      } else for (const p of phonePrefixes(q)) parts.push({ column: 'phone', how, value: p });
    }
    // Ids are lower-case letters and digits (platform/crypto.ts newId).
    if (want('id') && /^[a-z0-9]+$/.test(folded)) parts.push({ column: 'id', how, value: folded });
    return parts;
  }

  const condition = (eb: Eb, p: SearchPart, unindexed = false, mapped = false) =>
    p.how === 'contains' ? contains(eb, p.column, p.value, unindexed, mapped) : range(eb, p.column, p.value, unindexed);

  /**
   * The search's condition. PostgreSQL, a contains search from the trigram indexes: the text,
   * its punctuation replaced, in the columns as migration 0036 indexes them (pg_trgm drops
   * punctuation: `a.iv` alone asks for the common `a` and `iv`), AND the search itself, which
   * decides (a match of it always matches the first: replacing characters one for one keeps a
   * substring a substring). Two ORs, not one of pairs: the first is then exactly the index
   * scans' recheck, which the planner does not test again for each row.
   */
  function searched(eb: Eb, parts: SearchPart[], unindexed: boolean): Expression<SqlBool> {
    if (parts.length === 0) return sql<SqlBool>`1 = 0`; // text that can be none of the fields asked for
    const search = eb.or(parts.map((p) => condition(eb, p, unindexed)));
    // Texts under a trigram: no index helps, and the plain LIKE costs less a row than the replaced one.
    const indexed = parts.some((p) => p.how === 'contains' && isMapped(p.column)) && parts.every((p) => [...p.value].length >= 3);
    if (!pg || unindexed || !indexed) return search;
    const candidates = eb.or(parts.map((p) => condition(eb, p, false, true)));
    // A text with neither punctuation nor a stand-in letter is inside a replaced column only
    // where it is inside the column itself: the first OR is then the search, tested once a row.
    return parts.some((p) => changedByMapping(p.value)) ? eb.and([candidates, search]) : candidates;
  }

  /**
   * The accounts to read: all, or (SQLite, a `trigramMatch`) the trigram table's matches, each
   * then read by its rowid (migration 0035). CROSS JOIN keeps that order in SQLite's plan: the
   * matches stream in, so a count stops at its cap, and no index of accounts is scanned instead.
   */
  function source(trx: Db, match?: string): SelectQueryBuilder<Database, 'accounts', object> {
    if (match === undefined) return trx.selectFrom('accounts');
    const joined = trx
      .selectFrom(sql`accounts_contains`.as('m'))
      .crossJoin('accounts')
      .where(sql<SqlBool>`m.accounts_contains match ${match} and accounts.rowid = m.rowid`);
    // The trigram table's own columns (name_text…) never clash with those of accounts.
    return joined as unknown as SelectQueryBuilder<Database, 'accounts', object>;
  }

  /**
   * Everything but the search text. `tested`: the filters only tested on the rows read, never
   * searched in an index (SQLite's unary + and PostgreSQL's `+ 0`, no-ops on the value): a page
   * read in name order, whose index holds every filtered column (migration 0038). Left to
   * choose, SQLite took the status index for `disabled = 1` (20,000 rows at 1,000,000) and
   * sorted them all, ~45 ms a page, where the name index in order finds 21 in ~1,000 entries.
   */
  function unsearched(trx: Db, f: PersonFilter, match?: string, tested = false) {
    const col = (c: 'disabled' | 'activated' | 'created_at') => (!tested ? sql.ref(c) : pg ? sql`(${sql.ref(c)} + 0)` : sql`+${sql.ref(c)}`);
    let s = source(trx, match).where('realm_id', '=', f.realmId).where('kind', '=', 'person');
    if (f.disabled !== undefined) s = s.where(col('disabled'), '=', f.disabled ? 1 : 0);
    if (f.activated !== undefined) s = s.where(col('activated'), '=', f.activated ? 1 : 0);
    if (f.createdFrom !== undefined) s = s.where(col('created_at'), '>=', f.createdFrom);
    if (f.createdTo !== undefined) s = s.where(col('created_at'), '<', f.createdTo);
    return s;
  }

  function filtered(trx: Db, f: PersonFilter, unindexed = false) {
    if (!f.q) return unsearched(trx, f);
    const parts = searchParts(f);
    // SQLite's LIKE cannot read an index: a contains search's candidates come from the trigram
    // table, and the LIKE keeps exactly the rows it matched before. PostgreSQL's planner finds
    // them in its trigram indexes (`searched`). `unindexed` (many matches): read in order instead.
    const match = unindexed ? undefined : trigramMatch(parts);
    return unsearched(trx, f, match).where((eb) => searched(eb, parts, unindexed));
  }

  /**
   * SQLite: the FTS5 query finding the candidates of a contains search: the rows holding every
   * trigram of one of the texts (the table keeps no positions or columns, migration 0035). None
   * when a text is shorter than a trigram: nothing to look up, and it matches so many rows that
   * reading in order finds a page sooner.
   */
  function trigramMatch(parts: SearchPart[]): string | undefined {
    if (pg || parts.length === 0 || parts.some((p) => p.how !== 'contains' || [...p.value].length < 3)) return undefined;
    const texts = [...new Set(parts.map((p) => p.value))];
    const all = (text: string) => {
      const points = [...text];
      const grams = new Set(points.slice(2).map((_, i) => points.slice(i, i + 3).join('')));
      return [...grams].map((g) => `"${g.replace(/"/g, '""')}"`).join(' AND ');
    };
    return texts.map((t) => `(${all(t)})`).join(' OR ');
  }

  /**
   * The keyset rules, in one place: rows in (sort key, id) order, or the reverse (`backwards`),
   * strictly past the cursor, answered in the order asked. Names columns of the table or of a
   * derived table of it alike.
   */
  function keyset(q: PersonPageQuery) {
    // `few`: the name as an expression no index holds (as `range` does for a common search), so
    // that neither planner reads the name index in order; the filters' index finds the rows.
    const name = q.few
      ? pg
        ? sql<string>`(${sql.ref('username_norm')} || '') collate "C"`
        : sql<string>`+${sql.ref('username_norm')}`
      : text('username_norm');
    const key = q.sort === 'username' ? name : sql<number>`${sql.ref('created_at')}`;
    const ascending = (q.order === 'asc') !== Boolean(q.backwards);
    const direction = sql.raw(ascending ? 'asc' : 'desc');
    const op = sql.raw(ascending ? '>' : '<');
    return {
      key,
      direction,
      /** the rows past the cursor (none: every row) */
      past: <S extends SelectQueryBuilder<any, any, any>>(s: S): S =>
        q.after ? (s.where(sql<SqlBool>`(${key}, ${text('id')}) ${op} (${q.after.value}, ${q.after.id})`) as S) : s,
      /** in the order read */
      ordered: <S extends SelectQueryBuilder<any, any, any>>(s: S): S => s.orderBy(sql`${key} ${direction}`).orderBy(sql`${text('id')} ${direction}`) as S,
      /** the rows read, in the order asked */
      asAsked: <R>(rows: R[]): R[] => (q.backwards ? rows.reverse() : rows),
    };
  }

  /**
   * A prefix search, one query per field searched (each a range of its own index, migration
   * 0033), as many as there are conditions; none when the text can be none of those fields.
   * Apart, each range is read from its index alone; OR-ed, the databases read every matching
   * row from the table.
   */
  function prefixBranches(trx: Db, f: PersonFilter) {
    if (!f.q || f.match === 'contains') return undefined;
    return searchParts(f).map((part) => ({ part, rows: unsearched(trx, f).where((eb) => condition(eb, part)) }));
  }

  return {
    /**
     * Reads started together run together (PostgreSQL: each on a pooled connection of its own);
     * on SQLite's one connection they take turns, so starting an extra one only adds its cost.
     */
    readsOverlap: pg,

    /**
     * One page in the order asked (`backwards`: the rows before `after`, still answered in
     * the order asked). Ties on the sort key are broken by id, so no row is skipped or repeated.
     */
    async listPersons(q: PersonPageQuery, trx: Db = db): Promise<PersonListRow[]> {
      const byName = q.sort === 'username';
      const { key, direction, past, ordered, asAsked } = keyset(q);
      // byte order on PostgreSQL too, as inside the keys' query (the derived columns' collation is not relied on)
      const inC = (column: string, isText: boolean) => (pg && isText ? sql`${sql.ref(column)} collate "C"` : sql.ref(column));
      /** The page's rows, for its keys (sort key `k` and id) read apart. */
      const rowsOfKeys = (keys: KeysQuery): Promise<PersonListRow[]> =>
        trx
          .selectFrom(keys.as('keys'))
          .innerJoin('accounts', 'accounts.id', 'keys.id')
          .select(PERSON_LIST_COLUMNS.map((c) => `accounts.${c}` as const))
          .orderBy(sql`${inC('keys.k', byName)} ${direction}`)
          .orderBy(sql`${inC('keys.id', true)} ${direction}`)
          .limit(q.limit)
          .execute();
      const branches = q.common ? undefined : prefixBranches(trx, q);
      if (branches) {
        if (branches.length === 0) return [];
        // The page's keys from each field's index (sort key and id only), then its rows.
        const keys = branches.map(({ part, rows: b }, i) => {
          const picked = past(b.select([sql<string | number>`${key}`.as('k'), 'id']));
          // PostgreSQL: a field whose index does not hold the page's order has few matches here
          // (the caller counted them: not `common`), so they are gathered from its index on their
          // own (OFFSET 0: planned apart from the page's ORDER BY and LIMIT) and sorted. Left to
          // plan with them, a misestimated range (a phone prefix within +86: 7,412 rows guessed,
          // 262 found) sent it down the list's index instead, testing 186,000 rows (~40 ms).
          const inOrder = ordered(picked).limit(q.limit);
          const top =
            pg && !(byName && part.column === 'username_norm')
              ? (trx
                  .selectFrom(picked.offset(0).as('m'))
                  .select(['k', 'id'])
                  .orderBy(sql`${inC('m.k', byName)} ${direction}`)
                  .orderBy(sql`${inC('m.id', true)} ${direction}`)
                  .limit(q.limit) as unknown as typeof inOrder)
              : inOrder;
          return trx.selectFrom(top.as(`b${i}`)).select(['k', 'id']);
        });
        const union = keys.slice(1).reduce((u, k) => u.union(k), keys[0]!);
        return asAsked(await rowsOfKeys(union));
      }
      if (!q.q && !byName && q.disabled !== undefined && q.activated === undefined) {
        // The status filter alone, newest first: the status index (migration 0033) holds each
        // activation's rows in order but not the two together, so the databases gathered every
        // row of the status and sorted them (2 % of 1,000,000 disabled: ~4–5 ms a page on
        // SQLite; a realm half disabled, half the table). Each activation's first `limit`
        // rows, merged, are the page.
        const arms = [false, true].map((activated, i) =>
          trx
            .selectFrom(
              ordered(past(unsearched(trx, { ...q, activated }).select(PERSON_LIST_COLUMNS)))
                .limit(q.limit)
                .as(`a${i}`),
            )
            .selectAll(),
        );
        const merged = trx.selectFrom(arms[0]!.unionAll(arms[1]!).as('arms')).selectAll();
        return asAsked(await ordered(merged).limit(q.limit).execute());
      }
      if (byName && filtersOnly(q) && !q.few) {
        // Filters alone by name, not few: read in name order, the filters tested in the index.
        // PostgreSQL tests them there only in an index-only scan, so the page's keys come
        // first and then its rows (a page of the disabled: ~650 table rows read and dropped
        // before, 2.8 → 0.8 ms).
        const tested = unsearched(trx, q, undefined, true);
        if (!pg)
          return asAsked(
            await ordered(past(tested.select(PERSON_LIST_COLUMNS)))
              .limit(q.limit)
              .execute(),
          );
        return asAsked(await rowsOfKeys(ordered(past(tested.select([sql<string>`${key}`.as('k'), 'id']))).limit(q.limit)));
      }
      const s = past(filtered(trx, q, q.common).select(PERSON_LIST_COLUMNS));
      // PostgreSQL, a contains search with few matches: OFFSET 0 plans the matches on their own
      // (from the trigram indexes), then the page is sorted out of them. Planned with the page's
      // order and LIMIT, its estimate of LIKE's matches may send it down the list's index
      // instead, testing every row (~0.6 s at 1,000,000 for 1,700 matches).
      const fenced = pg && q.match === 'contains' && Boolean(q.q) && !q.common;
      const page = fenced ? trx.selectFrom(s.offset(0).as('matches')).selectAll() : s;
      const rows = await ordered(page as typeof s)
        .limit(q.limit)
        .execute();
      return asAsked(rows);
    },

    /**
     * PostgreSQL, a contains search: its matches (at most `cap + 1` of them) counted and the
     * page sorted out of them in one pass over the table. Checking a trigram index's candidates
     * reads their table rows; a count, then the page, read those rows twice. The page is that of
     * every match only while `counted` ≤ `cap`: past it the caller reads the page in order.
     * undefined elsewhere (SQLite's trigram table finds the candidates without the table), and
     * when no row follows the cursor (the count is then unknown).
     */
    async containsPageUpTo(q: PersonPageQuery, cap: number, trx: Db = db): Promise<{ rows: PersonListRow[]; counted: number } | undefined> {
      if (!pg || q.match !== 'contains' || !q.q) return undefined;
      if (searchParts(q).length === 0) return { rows: [], counted: 0 };
      // the derived table's columns, compared in byte order as the list's indexes order them
      const { past, ordered, asAsked } = keyset(q);
      const matches = filtered(trx, q)
        .select(PERSON_LIST_COLUMNS)
        .limit(cap + 1)
        .as('matches');
      // counted over every match gathered, before the cursor narrows them to the page
      const all = trx
        .selectFrom(matches)
        .selectAll()
        .select(sql<number>`count(*) over ()`.as('counted'))
        .as('counted_matches');
      const found = await ordered(past(trx.selectFrom(all).selectAll()))
        .limit(q.limit)
        .execute();
      // No row after the cursor leaves the count unknown (rare: a page past the last): undefined.
      if (found.length === 0) return q.after ? undefined : { rows: [], counted: 0 };
      const counted = Number(found[0]!.counted);
      const rows = found.map(({ counted: _, ...row }) => row as PersonListRow);
      return { rows: asAsked(rows), counted };
    },

    /** The number of matching persons, counted no further than `cap + 1` (a total beyond the cap is not worth its time). */
    async countPersonsUpTo(f: PersonFilter, cap: number, trx: Db = db): Promise<number> {
      const capped = (rows: ReturnType<typeof unsearched>) =>
        trx
          .selectFrom(
            rows
              .select(sql.lit(1).as('one'))
              .limit(cap + 1)
              .as('capped'),
          )
          .select((eb) => eb.fn.countAll<number>().as('n'));
      const upTo = async (rows: ReturnType<typeof unsearched>) => Number((await capped(rows).executeTakeFirstOrThrow()).n);
      const branches = prefixBranches(trx, f)?.map((b) => b.rows);
      if (!branches) return upTo(filtered(trx, f));
      if (branches.length === 0) return 0;
      if (branches.length === 1) return upTo(branches[0]!);
      // An account found by two fields is counted once (UNION of at most cap + 1 ids each).
      const ids = branches
        .map((b, i) =>
          trx
            .selectFrom(
              b
                .select('id')
                .limit(cap + 1)
                .as(`b${i}`),
            )
            .select('id'),
        )
        .reduce((u, k) => u.union(k));
      const union = trx
        .selectFrom(ids.as('matched'))
        .select(sql.lit(1).as('one'))
        .limit(cap + 1)
        .as('union_capped');
      if (pg) {
        // One statement, not one a field and then the union (each a round trip), evaluated as
        // the loop below is: an uncorrelated subquery is run when the CASE first needs it, so the
        // fields are counted in turn, the first over the cap ends it (with cap + 1, which is what
        // its capped count is), and the union is gathered only when none is.
        const over = branches.map((b) => sql`when (${capped(b)}) > ${cap} then ${cap + 1}`);
        const { rows } = await sql<{ n: number }>`select case ${sql.join(over, sql` `)} else (select count(*) from ${union}) end as n`.execute(trx);
        return Number(rows[0]!.n);
      }
      // Each field's matches from its own index: one over the cap makes the whole so, and a
      // common search stops there, without gathering ids.
      for (const b of branches) {
        const n = await upTo(b);
        if (n > cap) return n;
      }
      const row = await trx
        .selectFrom(union)
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
  };
}

export type AccountListQueries = ReturnType<typeof accountListQueries>;
