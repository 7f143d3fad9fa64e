import type { Phrases } from '../types.js';

export const shell: Phrases['shell'] = {
  site_title: 'ユーザー管理バックオフィス',
  personal_center: '個人センター',
  logout: 'ログアウト',
  login: 'ログイン',
  logout_confirm: '本当にログアウトしますか？',
  settings: 'ページ設定',
  collapse: 'メニューを折りたたむ',
  expand: 'メニューを展開',
  language: '言語',
  loading: '読み込み中…',
  tab_actions: 'タブの操作',
  close_current: '現在のタブを閉じる',
  close_right: '右側のタブを閉じる',
  close_left: '左側のタブを閉じる',
  close_all: 'すべてのタブを閉じる',
  last_tab: '最後のタブは閉じられません',
  no_left: '左側にタブはありません',
  no_right: '右側にタブはありません',
  close_tab: 'タブを閉じる',
};
