/** List tables of the console (components/data-table.tsx), 简体中文. */
import type { Phrases } from '../types.js';

export const table: Phrases['table'] = {
  column_settings: '列设置',
  columns_reset: '重置',
  reload: '刷新',
  total: '第 {{start}}-{{end}} 条 / 共 {{total}} 条',
  load_failed: '列表加载失败',
  selected: '已选择 {{count}} 项',
  clear_selection: '取消选择',
  scroll_area: '表格内容（可滚动）',
};
