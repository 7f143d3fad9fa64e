/** List tables of the console (components/data-table.tsx), 日本語. */
import type { Phrases } from '../types.js';

export const table: Phrases['table'] = {
  column_settings: '列の設定',
  columns_reset: 'リセット',
  reload: '再読み込み',
  total: '{{total}} 件中 {{start}}-{{end}} 件',
  load_failed: '一覧を読み込めませんでした',
  selected: '{{count}} 件を選択中',
  clear_selection: '選択を解除',
  scroll_area: '表の行（スクロール可能）',
};
