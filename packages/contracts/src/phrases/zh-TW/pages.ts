import type { Phrases } from '../types.js';

export const pages: Phrases['pages'] = {
  not_available_title: '尚未開放',
  not_available: '此頁面將在後續版本提供。在功能真正可用之前，這裡不會顯示任何內容。',
  back_home: '返回首頁',
  exception_403: '抱歉，您無權存取此頁面。',
  exception_404: '抱歉，您造訪的頁面不存在。',
  exception_500: '抱歉，伺服器發生錯誤。',
  chunk_error_title: '頁面載入失敗',
  chunk_error: '可能是網路較慢，或主控台剛剛更新。',
  retry: '重試',
  account_name: '帳號名稱',
  account_id: '帳號 ID',
  realm: '網域',
  roles: '已指派角色',
  permissions: '權限',
};
