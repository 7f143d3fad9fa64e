/**
 * A list page's paging, sorting and filters live in the address (STYLE §14): a reload, a shared
 * link or the back button shows the same page. What a page may put there is declared once in a
 * ListSpec; anything else in the query string (the shell's displayServiceAccount/displayClient
 * pair) is kept as it is. In the address:
 *   page=3           1-based, left out for the first page
 *   pageSize=50      left out for the spec's default
 *   sort=name        ascending; `sort=-name` descending; left out for the spec's default
 *   <filter>=value   one value per declared filter, trimmed; left out when empty
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export type SortOrder = 'ascend' | 'descend';

export interface ListSort<S extends string = string> {
  field: S;
  order: SortOrder;
}

export interface ListSpec<F extends string = string, S extends string = string> {
  /** Names of the filters (also their parameter names). Not `page`, `pageSize` or `sort`. */
  filters?: readonly F[];
  /** Fields the server can sort by; a `sort` naming another field is ignored. */
  sortable?: readonly S[];
  /** Rows per page when the address does not say (default 20). */
  pageSize?: number;
  /** Sizes a user may choose (default 10, 20, 50, 100); another `pageSize` is ignored. */
  pageSizes?: readonly number[];
  /** The order when the address does not say; none means the server's own. */
  defaultSort?: ListSort<S>;
}

export interface ListParams<F extends string = string, S extends string = string> {
  page: number;
  pageSize: number;
  /** (page - 1) × pageSize: what limit/offset APIs take. */
  offset: number;
  sort: ListSort<S> | undefined;
  filters: Partial<Record<F, string>>;
}

export interface ListChange<F extends string = string, S extends string = string> {
  page?: number;
  pageSize?: number;
  /** null: back to the default order. */
  sort?: ListSort<S> | null;
  /** Only the named filters change; undefined or '' removes one. */
  filters?: Partial<Record<F, string | undefined>>;
}

export const DEFAULT_PAGE_SIZE = 20;
export const DEFAULT_PAGE_SIZES: readonly number[] = [10, 20, 50, 100];

function pageSizeOf(spec: ListSpec<string, string>): number {
  return spec.pageSize ?? DEFAULT_PAGE_SIZE;
}

function readSort<S extends string>(value: string | null, spec: ListSpec<string, S>): ListSort<S> | undefined {
  if (!value) return spec.defaultSort;
  const field = (value.startsWith('-') ? value.slice(1) : value) as S;
  if (!spec.sortable?.includes(field)) return spec.defaultSort;
  return { field, order: value.startsWith('-') ? 'descend' : 'ascend' };
}

const sameSort = (a: ListSort | undefined, b: ListSort | undefined) => a?.field === b?.field && a?.order === b?.order;

/** The list's state as the address gives it, each value checked against the spec. */
export function readListParams<F extends string, S extends string>(search: URLSearchParams, spec: ListSpec<F, S>): ListParams<F, S> {
  const page = Math.max(1, Math.floor(Number(search.get('page'))) || 1);
  const askedSize = Number(search.get('pageSize'));
  const pageSize = (spec.pageSizes ?? DEFAULT_PAGE_SIZES).includes(askedSize) ? askedSize : pageSizeOf(spec);
  const filters: Partial<Record<F, string>> = {};
  for (const name of spec.filters ?? []) {
    const value = search.get(name)?.trim();
    if (value) filters[name] = value;
  }
  return { page, pageSize, offset: (page - 1) * pageSize, sort: readSort(search.get('sort'), spec), filters };
}

/**
 * The address after a change. A new page size, order or filter value starts again at page 1
 * (the old page number means nothing in the new list); defaults are left out of the address.
 */
export function writeListParams<F extends string, S extends string>(search: URLSearchParams, change: ListChange<F, S>, spec: ListSpec<F, S>): URLSearchParams {
  const before = readListParams(search, spec);
  const next = new URLSearchParams(search);
  const set = (name: string, value: string | undefined) => (value ? next.set(name, value) : next.delete(name));
  let restart = false;

  if (change.pageSize !== undefined && change.pageSize !== before.pageSize) {
    restart = true;
    set('pageSize', change.pageSize === pageSizeOf(spec) ? undefined : String(change.pageSize));
  }
  if (change.sort !== undefined) {
    const sort = change.sort ?? spec.defaultSort;
    restart ||= !sameSort(sort, before.sort);
    const isDefault = !sort || sameSort(sort, spec.defaultSort);
    set('sort', isDefault ? undefined : `${sort.order === 'descend' ? '-' : ''}${sort.field}`);
  }
  for (const [name, raw] of Object.entries(change.filters ?? {}) as [F, string | undefined][]) {
    if (!spec.filters?.includes(name)) continue;
    const value = raw?.trim() || undefined;
    restart ||= value !== before.filters[name];
    set(name, value);
  }
  const page = restart ? 1 : (change.page ?? before.page);
  set('page', page > 1 ? String(Math.floor(page)) : undefined);
  return next;
}

export interface ListState<F extends string = string, S extends string = string> extends ListParams<F, S> {
  spec: ListSpec<F, S>;
  /** Applies a change as a new history entry (`replace`: in place, e.g. to correct the address). */
  change: (change: ListChange<F, S>, options?: { replace?: boolean }) => void;
}

/** The list's state from the address, and a setter that writes it back. Declare `spec` once, outside the component. */
export function useListParams<F extends string = never, S extends string = never>(spec: ListSpec<F, S>): ListState<F, S> {
  const [search, setSearch] = useSearchParams();
  // Keyed by the text: useSearchParams gives a new object on every render.
  const query = search.toString();
  const params = useMemo(() => readListParams(new URLSearchParams(query), spec), [query, spec]);
  const change = useCallback(
    (c: ListChange<F, S>, options?: { replace?: boolean }) => setSearch((prev) => writeListParams(prev, c, spec), options),
    [setSearch, spec],
  );
  return { ...params, spec, change };
}
