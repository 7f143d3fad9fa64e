import type { Phrases } from '../types.js';

export const http: Phrases['http'] = {
  forbidden: 'アクセス禁止',
  unauthorized: '未認証',
  unauthorized_desc: '認証の検証に失敗しました',
  request_failed: 'リクエストに失敗しました',
  server_error: 'サーバーエラー（{{status}}）',
  no_response: 'サーバーが応答しません。しばらくしてから再試行してください',
  timeout: 'データの取得がタイムアウトしました',
  roles_missing: 'getInfo: roles は null でない配列である必要があります！',
  request_timeout: 'リクエストがタイムアウトしました',
  permission_insufficient: '権限が定義されていないか不足しています',
};
