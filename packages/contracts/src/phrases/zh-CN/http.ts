import type { Phrases } from '../types.js';

export const http: Phrases['http'] = {
  forbidden: '禁止访问',
  unauthorized: '未授权',
  unauthorized_desc: '授权验证失败',
  request_failed: '请求失败',
  server_error: '服务器错误（{{status}}）',
  no_response: '服务器无响应，请稍后再试',
  timeout: '数据获取超时',
  roles_missing: 'getInfo：roles 必须是非空数组！',
  request_timeout: '请求超时',
  permission_insufficient: '权限未定义或权限不足',
};
