/**
 * The pure half of components/data-table.tsx: the page's column declarations turned into
 * antd's (sort order, filter value and visibility from the list state; '—' for empty cells),
 * and antd's change event turned back into a change of the address (lib/use-list-params.ts).
 */
import type { ColumnType, FilterValue, SorterResult, TablePaginationConfig } from 'antd/es/table/interface';
import type { ReactNode } from 'react';
import type { ListChange, ListParams } from '../lib/use-list-params';

/** What an empty cell shows, so that "nothing" is not mistaken for a rendering fault. */
export const EMPTY_CELL = '—';

export interface DataTableColumn<T, F extends string = string, S extends string = string> extends Omit<
  ColumnType<T>,
  | 'key'
  | 'title'
  | 'sorter'
  | 'sortOrder'
  | 'defaultSortOrder'
  | 'filters'
  | 'filteredValue'
  | 'defaultFilteredValue'
  | 'filterMultiple'
  | 'onFilter'
  | 'hidden'
> {
  /** Stable id: the column settings remember it. */
  key: string;
  /** Plain text: also the column's name in the column settings. */
  title: string;
  /** The server's sort field; makes the column sortable (one column at a time). */
  sortField?: S;
  /** The list filter this column's filter menu sets, with the values offered. One value at a time. */
  filter?: { param: F; options: { value: string; text: ReactNode }[] };
  /** Hidden until the user shows it in the column settings. */
  defaultHidden?: boolean;
  /** false: always shown, not offered in the column settings. */
  hideable?: boolean;
}

export const isBlank = (value: unknown) => value === null || value === undefined || value === '';

/** antd's columns for the current list state; hidden ones stay in the list with `hidden`. */
export function toAntdColumns<T, F extends string, S extends string>(
  columns: readonly DataTableColumn<T, F, S>[],
  list: Pick<ListParams<F, S>, 'sort' | 'filters'>,
  hidden: ReadonlySet<string>,
): ColumnType<T>[] {
  return columns.map(({ sortField, filter, defaultHidden: _defaultHidden, hideable = true, render, ...column }) => {
    const value = filter ? list.filters[filter.param] : undefined;
    return {
      ...column,
      hidden: hideable && hidden.has(column.key),
      render: (cell: unknown, row: T, index: number) => {
        const out = render ? render(cell, row, index) : (cell as ReactNode);
        return isBlank(out) ? EMPTY_CELL : out;
      },
      ...(sortField ? { sorter: true, sortOrder: list.sort?.field === sortField ? list.sort.order : null } : {}),
      ...(filter ? { filters: filter.options, filterMultiple: false, filteredValue: value ? [value] : null } : {}),
    };
  });
}

/**
 * The change antd's onChange reports (it always sends page, filters and order together);
 * writeListParams keeps the page only when nothing else changed.
 */
export function changeFromTable<T, F extends string, S extends string>(
  columns: readonly DataTableColumn<T, F, S>[],
  pagination: TablePaginationConfig,
  filters: Record<string, FilterValue | null>,
  sorter: SorterResult<T> | SorterResult<T>[],
): ListChange<F, S> {
  const sorted = Array.isArray(sorter) ? sorter[0] : sorter;
  const sortField = sorted?.order ? columns.find((c) => c.key === sorted.columnKey)?.sortField : undefined;
  const filterChange: Partial<Record<F, string | undefined>> = {};
  for (const column of columns) {
    // A hidden column is not in `filters`; its filter stays as it is.
    if (column.filter && column.key in filters) filterChange[column.filter.param] = filters[column.key]?.[0]?.toString();
  }
  return {
    ...(pagination.current ? { page: pagination.current } : {}),
    ...(pagination.pageSize ? { pageSize: pagination.pageSize } : {}),
    sort: sortField && sorted?.order ? { field: sortField, order: sorted.order } : null,
    filters: filterChange,
  };
}
