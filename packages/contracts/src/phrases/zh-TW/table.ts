/** List tables of the console (components/data-table.tsx), 繁體中文. */
import type { Phrases } from '../types.js';

export const table: Phrases['table'] = {
  column_settings: '欄位設定',
  columns_reset: '重設',
  reload: '重新整理',
  total: '第 {{start}}-{{end}} 筆 / 共 {{total}} 筆',
  load_failed: '清單載入失敗',
  selected: '已選取 {{count}} 項',
  clear_selection: '取消選取',
  scroll_area: '表格內容（可捲動）',
};
