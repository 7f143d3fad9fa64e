import type { Phrases } from '../types.js';

export const pages: Phrases['pages'] = {
  not_available_title: '準備中',
  not_available: 'この画面は今後のリリースで提供されます。実際に動作するまで、ここには何も表示されません。',
  back_home: 'ホームに戻る',
  exception_403: '申し訳ありません。このページへのアクセス権がありません。',
  exception_404: '申し訳ありません。お探しのページは存在しません。',
  exception_500: '申し訳ありません。サーバーでエラーが発生しました。',
  chunk_error_title: 'ページを読み込めませんでした',
  chunk_error: 'ネットワークが遅いか、コンソールが更新された可能性があります。',
  retry: '再試行',
  account_name: 'アカウント名',
  account_id: 'アカウント ID',
  realm: 'ドメイン',
  roles: '割り当てられたロール',
  permissions: '権限',
};
