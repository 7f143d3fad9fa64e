/**
 * The person accounts of a realm, by the page and as a CSV export (issue 11). Pages are keyset
 * pages (accounts/accounts.list.repo.ts): `next` and `prev` are opaque cursors, so the 10th
 * and the 50,000th page cost the same. Without a search or a registration-date filter the total
 * is exact at any size, read from the tallies triggers keep (migration 0037); otherwise it is
 * counted up to PERSON_LIMITS.totalCap and then answered as capped ("10,000+"): counting a
 * million matches on every page is not worth it.
 * The export reads the same filter in keyset batches and never holds the whole set.
 */
import { PERSON_EXPORT_COLUMNS, PERSON_LIMITS, type PersonList, type personFilterQuery, type personListQuery } from '@umbo/contracts';
import type { z } from 'zod';
import { filtersOnly, type PersonFilter, type PersonListRow } from '../accounts/accounts.list.repo.js';
import type { AccountRepo } from '../accounts/accounts.repo.js';
import type { AuditService } from '../audit/audit.service.js';
import { csvLine } from '../platform/csv.js';
import type { AdminCall } from './person-admin.service.js';
import { decodeCursor, encodeCursor, sortValue, toPersonItem } from './person-view.js';

export type PersonListInput = z.output<typeof personListQuery>;
export type PersonFilterInput = z.output<typeof personFilterQuery>;

/** Rows an export reads per query. */
const EXPORT_BATCH = 1000;

export interface PersonListDeps {
  accounts: Pick<AccountRepo, 'listPersons' | 'countPersonsUpTo' | 'containsPageUpTo' | 'tallyPersons' | 'readsOverlap'>;
  audit: Pick<AuditService, 'record'>;
  /** 1004 when the realm does not exist */
  assertRealm(realmId: string): Promise<void>;
}

function filterOf(realmId: string, q: PersonFilterInput): PersonFilter {
  return {
    realmId,
    q: q.q || undefined,
    field: q.field,
    match: q.match,
    disabled: q.status === undefined ? undefined : q.status === 'disabled',
    activated: q.activated === undefined ? undefined : q.activated === 'yes',
    createdFrom: q.createdFrom,
    createdTo: q.createdTo,
  };
}

/**
 * Matches beyond which a search's page (or, by name, a filter's) is read in order rather than
 * gathered (the break-even of the two at 1,000,000 accounts, `npm run bench`;
 * accounts.list.repo.ts `common` and `few`).
 */
const COMMON_SEARCH = 3000;

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

function exportCells(r: PersonListRow): string[] {
  const item = toPersonItem(r);
  return [
    item.id,
    item.username,
    item.email ?? '',
    item.phone ?? '',
    String(item.disabled),
    String(item.activated),
    item.registArea,
    iso(item.createdAt),
    iso(item.lastLoginAt),
  ];
}

export function createPersonListService(deps: PersonListDeps) {
  const { accounts } = deps;

  /** The cursor decoded; one that is not valid is answered after the realm's own check (1004 first). */
  async function cursorOf(realmId: string, q: PersonListInput) {
    try {
      return decodeCursor(q.cursor!, q.sort);
    } catch (err) {
      await deps.assertRealm(realmId);
      throw err;
    }
  }

  async function list(realmId: string, q: PersonListInput): Promise<PersonList> {
    const filter = filterOf(realmId, q);
    const decoded = q.cursor ? await cursorOf(realmId, q) : undefined;
    const cursor = decoded && q.direction ? { ...decoded, backwards: q.direction === 'prev' } : decoded;
    // One row more than shown tells whether another page follows, without counting.
    const pageQuery = { ...filter, sort: q.sort, order: q.order, limit: q.limit + 1, after: cursor, backwards: cursor?.backwards };
    // Many matches of a search are found sooner in the page's order than gathered and sorted,
    // except for a name prefix search listed by name, whose index already holds that order (a
    // contains search's trigrams hold none).
    const inOrder = q.sort === 'username' && filter.field === 'username' && filter.match !== 'contains';
    // PostgreSQL, a contains search: the count and the page out of one read of the matches,
    // which is the page of them all unless they are more than the cap.
    const once = await accounts.containsPageUpTo(pageQuery, PERSON_LIMITS.totalCap);
    // Without a search (or in the index's order) the page's plan needs no count: both at once,
    // each on a connection of its own on PostgreSQL (one round trip's wait, not two). Except
    // filters alone listed by name: their count decides how the page is read (few: gathered
    // from the filters' index and sorted; many: in name order), so it comes first.
    const filteredByName = q.sort === 'username' && filtersOnly(filter);
    const early = !once && (!filter.q || inOrder) && !filteredByName ? accounts.listPersons({ ...pageQuery, common: false }) : undefined;
    early?.catch(() => undefined); // awaited below; a count failing first must not leave it unhandled
    // Otherwise the count (capped, read from indexes) first: it tells how to read a search's page.
    // Filters the tallies keep apart (status, activation) are exact without counting.
    const tallied = !filter.q && filter.createdFrom === undefined && filter.createdTo === undefined;
    let rows: PersonListRow[] | undefined;
    let counted: number;
    if (once) counted = once.counted;
    else if (tallied) counted = await accounts.tallyPersons(filter);
    else if (!early && accounts.readsOverlap) {
      // A search's plan (or, by name, a date filter's) needs only to know whether it has more
      // than COMMON_SEARCH matches: that count is cheaper than the capped total (PostgreSQL at
      // 1,000,000: ~0.6 against ~2 ms for a common prefix), and the total is then counted while
      // the page is read.
      const decided = await accounts.countPersonsUpTo(filter, COMMON_SEARCH);
      if (decided <= COMMON_SEARCH) counted = decided;
      else {
        const total = accounts.countPersonsUpTo(filter, PERSON_LIMITS.totalCap);
        total.catch(() => undefined); // awaited below; a page failing first must not leave it unhandled
        rows = await accounts.listPersons({ ...pageQuery, common: true });
        counted = await total;
      }
    } else counted = await accounts.countPersonsUpTo(filter, PERSON_LIMITS.totalCap);
    // A realm with matching accounts exists (they go with it: ON DELETE CASCADE); only an empty
    // answer may be a realm that does not, which is 1004, not an empty page.
    if (counted === 0) await deps.assertRealm(realmId);
    const common = Boolean(filter.q) && counted > COMMON_SEARCH && !inOrder;
    const few = filteredByName && counted <= COMMON_SEARCH;
    rows ??= early ? await early : once && counted <= PERSON_LIMITS.totalCap ? once.rows : await accounts.listPersons({ ...pageQuery, common, few });
    const more = rows.length > q.limit;
    // Read backwards, the extra row is the first one (the rows come back in the order asked).
    const page = cursor?.backwards ? rows.slice(more ? 1 : 0) : rows.slice(0, q.limit);
    const first = page[0];
    const last = page[page.length - 1];
    const hasNext = cursor?.backwards ? true : more;
    const hasPrev = cursor?.backwards ? more : cursor !== undefined;
    return {
      items: page.map(toPersonItem),
      total: tallied ? counted : Math.min(counted, PERSON_LIMITS.totalCap),
      totalCapped: !tallied && counted > PERSON_LIMITS.totalCap,
      nextCursor: last && hasNext ? encodeCursor({ sort: q.sort, value: sortValue(q.sort, last), id: last.id, backwards: false }) : null,
      prevCursor: first && hasPrev ? encodeCursor({ sort: q.sort, value: sortValue(q.sort, first), id: first.id, backwards: true }) : null,
    };
  }

  /**
   * The CSV of every account the filter matches, header first, in keyset batches. The audit
   * event (account.export with the count) is recorded when the last batch has been read, or
   * when the download stopped early, with what was sent.
   */
  async function exportCsv(realmId: string, q: PersonFilterInput, call: AdminCall): Promise<AsyncGenerator<string>> {
    // Checked before the first byte: once the download has started, its status is 200.
    await deps.assertRealm(realmId);
    return exportRows(realmId, q, call);
  }

  async function* exportRows(realmId: string, q: PersonFilterInput, call: AdminCall): AsyncGenerator<string> {
    const filter = filterOf(realmId, q);
    let count = 0;
    let completed = false;
    try {
      yield csvLine(PERSON_EXPORT_COLUMNS);
      // A contains search's trigrams find its matches in no order: with many, each batch would
      // gather and sort them all again, so they are read in order, each batch where the last ended.
      const common = filter.match === 'contains' && Boolean(filter.q) && (await accounts.countPersonsUpTo(filter, COMMON_SEARCH)) > COMMON_SEARCH;
      let after: { value: string | number; id: string } | undefined;
      for (;;) {
        const rows = await accounts.listPersons({ ...filter, sort: q.sort, order: q.order, limit: EXPORT_BATCH, after, common });
        if (rows.length === 0) break;
        yield rows.map((r) => csvLine(exportCells(r))).join('');
        count += rows.length;
        const last = rows[rows.length - 1]!;
        after = { value: sortValue(q.sort, last), id: last.id };
        if (rows.length < EXPORT_BATCH) break;
      }
      completed = true;
    } finally {
      await deps.audit.record({
        realmId,
        actor: call.actor,
        action: 'account.export',
        result: completed ? 'ok' : 'fail',
        request: call.request,
        detail: { count, ...(q.q ? { filtered: true } : {}) },
      });
    }
  }

  return { list, exportCsv };
}

export type PersonListService = ReturnType<typeof createPersonListService>;
