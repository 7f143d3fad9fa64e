import type { Phrases } from '../types.js';

export const shell: Phrases['shell'] = {
  site_title: '使用者管理後台',
  personal_center: '個人中心',
  logout: '登出',
  login: '登入',
  logout_confirm: '確定要登出嗎？',
  settings: '頁面設定',
  collapse: '收合選單',
  expand: '展開選單',
  language: '語言',
  loading: '載入中…',
  tab_actions: '分頁操作',
  close_current: '關閉目前分頁',
  close_right: '關閉右側',
  close_left: '關閉左側',
  close_all: '關閉全部',
  last_tab: '這是最後一個分頁了，無法關閉',
  no_left: '左側沒有分頁',
  no_right: '右側沒有分頁',
  close_tab: '關閉標籤頁',
};
