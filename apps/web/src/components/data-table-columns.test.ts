import type { ColumnType } from 'antd/es/table/interface';
import { describe, expect, it } from 'vitest';
import { changeFromTable, EMPTY_CELL, toAntdColumns, type DataTableColumn } from './data-table-columns';

interface Row {
  id: string;
  name: string | null;
  kind: string;
}

const columns: DataTableColumn<Row, 'kind', 'name'>[] = [
  { key: 'name', dataIndex: 'name', title: 'Name', sortField: 'name' },
  {
    key: 'kind',
    dataIndex: 'kind',
    title: 'Kind',
    filter: {
      param: 'kind',
      options: [
        { value: 'a', text: 'A' },
        { value: 'b', text: 'B' },
      ],
    },
    render: (k: string) => (k === 'none' ? '' : k.toUpperCase()),
  },
  { key: 'id', dataIndex: 'id', title: 'ID', hideable: false },
];

const cell = (column: ColumnType<Row>, value: unknown, row: Row) => column.render!(value, row, 0);

describe('data table columns', () => {
  it('sets sort order, filter value and visibility from the list state', () => {
    const [name, kind, id] = toAntdColumns(columns, { sort: { field: 'name', order: 'descend' }, filters: { kind: 'b' } }, new Set(['kind', 'id']));
    expect(name).toMatchObject({ key: 'name', title: 'Name', sorter: true, sortOrder: 'descend', hidden: false });
    expect(kind).toMatchObject({ filters: columns[1]!.filter!.options, filterMultiple: false, filteredValue: ['b'], hidden: true });
    expect(kind).not.toHaveProperty('sorter');
    // A column that may not be hidden stays, whatever was stored.
    expect(id).toMatchObject({ hidden: false });
    const [unsorted, unfiltered] = toAntdColumns(columns, { sort: undefined, filters: {} }, new Set());
    expect(unsorted!.sortOrder).toBeNull();
    expect(unfiltered!.filteredValue).toBeNull();
  });

  it('shows a dash for an empty cell, whether the value or the rendered result is empty', () => {
    const [name, kind] = toAntdColumns(columns, { sort: undefined, filters: {} }, new Set());
    const row = { id: '1', name: null, kind: 'none' };
    expect(cell(name!, null, row)).toBe(EMPTY_CELL);
    expect(cell(name!, '', row)).toBe(EMPTY_CELL);
    expect(cell(name!, 'Ada', row)).toBe('Ada');
    expect(cell(name!, 0, row)).toBe(0);
    expect(cell(kind!, 'none', row)).toBe(EMPTY_CELL);
    expect(cell(kind!, 'a', row)).toBe('A');
  });

  it('turns antd’s change event into a change of the address', () => {
    expect(changeFromTable(columns, { current: 3, pageSize: 50 }, { kind: ['a'] }, { columnKey: 'name', order: 'ascend' })).toEqual({
      page: 3,
      pageSize: 50,
      sort: { field: 'name', order: 'ascend' },
      filters: { kind: 'a' },
    });
    // Sorting switched off, filter cleared.
    expect(changeFromTable(columns, { current: 1, pageSize: 20 }, { kind: null }, { columnKey: 'name', order: undefined })).toEqual({
      page: 1,
      pageSize: 20,
      sort: null,
      filters: { kind: undefined },
    });
    // A hidden column is not reported: its filter is left alone.
    expect(changeFromTable(columns, { current: 2 }, {}, [])).toEqual({ page: 2, sort: null, filters: {} });
  });
});
