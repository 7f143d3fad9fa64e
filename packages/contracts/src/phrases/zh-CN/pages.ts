import type { Phrases } from '../types.js';

export const pages: Phrases['pages'] = {
  not_available_title: '暂未开放',
  not_available: '此页面将在后续版本中提供。在功能真正可用之前，这里不会显示任何内容。',
  back_home: '返回首页',
  exception_403: '抱歉，你无权访问该页面。',
  exception_404: '抱歉，你访问的页面不存在。',
  exception_500: '抱歉，服务器出错了。',
  chunk_error_title: '页面加载失败',
  chunk_error: '可能是网络较慢，或控制台刚刚更新。',
  retry: '重试',
  account_name: '账号名称',
  account_id: '账号 ID',
  realm: '域',
  roles: '已分配角色',
  permissions: '权限',
};
