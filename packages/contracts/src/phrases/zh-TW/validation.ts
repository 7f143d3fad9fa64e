import type { Phrases } from '../types.js';

export const validation: Phrases['validation'] = {
  required: '此欄位為必填',
  mobile: '請輸入有效的手機號碼',
  email: '請輸入有效的電子郵件地址',
  username: '使用者名稱：3-24 個字母、數字或底線',
  username_same: '新使用者名稱不可與目前名稱相同',
  password_min: '密碼至少需 6 個字元',
  password_max: '密碼過長',
  password_mismatch: '兩次輸入的密碼不一致',
  mail_code: '驗證碼為 24 個字母或數字',
  description: '描述：4-50 個字元',
  domain: '請輸入有效的網域名稱',
  url: '請輸入有效的 http 或 https 網址',
  sub_name: '須以字母開頭，可包含字母、數字、底線或句點，長度 3-50 個字元',
  key_name: '金鑰名稱：4-20 個字母、數字、底線或連字號',
  otp: '一次性密碼為 6 位數字',
  color: '請輸入顏色，例如 #1890ff',
  too_short: '至少 {{min}} 個字元',
  too_long: '最多 {{max}} 個字元',
  invalid: '請輸入有效的值',
};
