import type { Phrases } from '../types.js';

export const http: Phrases['http'] = {
  forbidden: '禁止存取',
  unauthorized: '未授權',
  unauthorized_desc: '授權驗證失敗',
  request_failed: '請求失敗',
  server_error: '伺服器錯誤（{{status}}）',
  no_response: '伺服器無回應，請稍後再試',
  timeout: '資料取得逾時',
  roles_missing: 'getInfo：roles 必須是非空陣列！',
  request_timeout: '請求逾時',
  permission_insufficient: '權限未定義或權限不足',
};
