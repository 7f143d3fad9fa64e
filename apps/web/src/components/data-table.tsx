/**
 * The console's list table (STYLE §14, DESIGN.md §5): antd's Table with the project's defaults,
 * so that every list page behaves the same.
 *   - server-side paging of an `{ items, total }` answer, page size chooser;
 *   - paging, sorting and column filters in the address, through lib/use-list-params.ts;
 *   - column settings (show/hide, kept per table in localStorage) and a reload button;
 *   - a header that stays in view under the shell's fixed top bar;
 *   - '—' in empty cells; a loading spinner; a failed load said in place, with a retry;
 *   - optional row selection with a bar that counts the rows and holds the bulk actions.
 * Columns are declared as DataTableColumn (components/data-table-columns.ts).
 */
import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import type { TableProps } from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import { useEffect, useMemo, useRef, type HTMLAttributes, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SHELL_HEADER_HEIGHT } from '../lib/antd-config';
import { useSettings } from '../lib/settings';
import { DEFAULT_PAGE_SIZES, type ListState } from '../lib/use-list-params';
import { ColumnSettings, useHiddenColumns } from './column-settings';
import { changeFromTable, toAntdColumns, type DataTableColumn } from './data-table-columns';

export type { DataTableColumn } from './data-table-columns';

/** A page of a list as the API answers it. */
export interface ListPage<T> {
  items: T[];
  total: number;
}

export interface DataTableSelection {
  selectedKeys: Key[];
  onChange: (keys: Key[]) => void;
  /** Bulk actions for the selected rows, shown in the selection bar. */
  actions?: ReactNode;
}

export interface DataTableProps<T, F extends string, S extends string> {
  /** Names the table in the column settings storage; stable across releases. */
  tableId: string;
  columns: readonly DataTableColumn<T, F, S>[];
  list: ListState<F, S>;
  data: ListPage<T> | undefined;
  rowKey: Extract<keyof T, string> | ((row: T) => string);
  loading?: boolean;
  error?: Error | null;
  onReload?: () => void;
  /** Search fields and buttons at the start of the toolbar. */
  toolbar?: ReactNode;
  selection?: DataTableSelection;
  /** Width from which the table scrolls sideways instead of squeezing its columns. */
  scrollX?: number | 'max-content';
  /** data-testid of every row, for tests that read rows the way a user reads them. */
  rowTestId?: string;
  /**
   * A pager of the page's own in place of antd's page numbers: keyset-paged lists (previous /
   * next by cursor) cannot jump to page N. The address keeps `page` at 1 then.
   */
  pager?: ReactNode;
  /** What an empty list says in place of antd's "No data" (e.g. how to add the first entry). */
  emptyText?: ReactNode;
}

export function DataTable<T extends object, F extends string = never, S extends string = never>(props: DataTableProps<T, F, S>) {
  const { tableId, columns, list, data, rowKey, loading, error, onReload, toolbar, selection, scrollX = 'max-content', rowTestId, pager, emptyText } = props;
  const { t } = useTranslation();
  const settings = useSettings();
  const hiddenByDefault = useMemo(() => columns.filter((c) => c.defaultHidden).map((c) => c.key), [columns]);
  const [hidden, setHidden] = useHiddenColumns(tableId, hiddenByDefault);
  const { page, pageSize, sort, filters, change } = list;
  const antdColumns = useMemo(() => toAntdColumns(columns, { sort, filters }, hidden), [columns, sort, filters, hidden]);
  const total = data?.total ?? 0;

  // A page past the end (a stale link, the last row of the last page deleted): show the last one.
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  useEffect(() => {
    if (data && !pager && page > lastPage) change({ page: lastPage }, { replace: true });
  }, [data, pager, page, lastPage, change]);

  const onChange: TableProps<T>['onChange'] = (pagination, tableFilters, sorter) => change(changeFromTable(columns, pagination, tableFilters, sorter));
  // The top bar stays put only when it is fixed and does not hide itself on scrolling.
  const offsetHeader = settings.fixedHeader && !settings.autoHideHeader ? SHELL_HEADER_HEIGHT : 0;
  const selected = selection?.selectedKeys.length ?? 0;

  // On a phone the rows scroll sideways: the scroll area takes keyboard focus so that it can
  // be scrolled without a mouse (WCAG 2.1.1, axe scrollable-region-focusable). The sticky
  // column titles scroll with it, clipped, and are marked so (data-scrollable).
  const wrapper = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = wrapper.current;
    if (!root) return;
    const mark = () => {
      for (const el of root.querySelectorAll<HTMLElement>('.ant-table-body, .ant-table-content')) {
        if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '0');
        el.setAttribute('aria-label', t('table.scroll_area'));
      }
      for (const el of root.querySelectorAll<HTMLElement>('.ant-table-header')) el.setAttribute('data-scrollable', '');
      // antd measures column widths in a hidden copy of the header row (aria-hidden). With a
      // sortable column or row selection that copy holds focusable controls (the select-all
      // box, the sorters): keep keyboard focus out of it (axe aria-hidden-focus).
      for (const row of root.querySelectorAll<HTMLElement>('.ant-table-measure-row')) {
        row.setAttribute('inert', '');
        for (const el of row.querySelectorAll<HTMLElement>('input, button, [tabindex]')) el.setAttribute('tabindex', '-1');
      }
    };
    mark();
    const observer = new MutationObserver(mark);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  });

  return (
    <div className="data-table" data-testid="data-table" ref={wrapper}>
      <div className="data-table__toolbar">
        <div className="data-table__filters">{toolbar}</div>
        <div className="data-table__tools">
          {onReload && (
            <Tooltip title={t('table.reload')}>
              <Button type="text" icon={<ReloadOutlined />} aria-label={t('table.reload')} onClick={onReload} data-testid="table-reload" />
            </Tooltip>
          )}
          <ColumnSettings columns={columns.filter((c) => c.hideable !== false)} hidden={hidden} onChange={setHidden} />
        </div>
      </div>
      {error && (
        <Alert
          className="data-table__alert"
          type="error"
          showIcon
          title={t('table.load_failed')}
          description={error.message}
          action={
            onReload && (
              <Button size="small" onClick={onReload}>
                {t('pages.retry')}
              </Button>
            )
          }
          data-testid="table-error"
        />
      )}
      {selection && selected > 0 && (
        <Alert
          className="data-table__alert"
          type="info"
          title={
            <span className="data-table__selection">
              {t('table.selected', { count: selected })}
              <Button type="link" size="small" onClick={() => selection.onChange([])}>
                {t('table.clear_selection')}
              </Button>
              {selection.actions}
            </span>
          }
        />
      )}
      <Table<T>
        size="middle"
        rowKey={rowKey}
        columns={antdColumns}
        dataSource={data?.items ?? []}
        loading={loading}
        onChange={onChange}
        sticky={{ offsetHeader }}
        scroll={{ x: scrollX }}
        showSorterTooltip={false}
        locale={emptyText === undefined ? undefined : { emptyText }}
        rowSelection={selection && { selectedRowKeys: selection.selectedKeys, onChange: (keys) => selection.onChange(keys), preserveSelectedRowKeys: true }}
        // React's attribute types have no data-* keys; the row gets the attribute all the same.
        onRow={rowTestId ? () => ({ 'data-testid': rowTestId }) as HTMLAttributes<HTMLElement> : undefined}
        pagination={
          pager
            ? false
            : {
                current: Math.min(page, lastPage),
                pageSize,
                total,
                showSizeChanger: true,
                pageSizeOptions: [...(list.spec.pageSizes ?? DEFAULT_PAGE_SIZES)],
                showTotal: (count, [start, end]) => t('table.total', { start, end, total: count }),
              }
        }
      />
      {pager && <div className="data-table__pager">{pager}</div>}
    </div>
  );
}
