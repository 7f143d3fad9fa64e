import type { Phrases } from '../types.js';

export const login: Phrases['login'] = {
  subtitle: '物聯網與機器人雲的身分與帳號管理',
  tab_password: '帳號密碼登入',
  username: '使用者名稱',
  password: '密碼',
  captcha: '圖形驗證碼',
  captcha_image: '驗證碼圖片，點擊換一張',
  captcha_needed: '為了帳戶安全，請輸入圖片中的字元後再試一次。',
  submit: '登入',
  register: '註冊帳號',
  forgot: '忘記密碼？',
  sso_unavailable: '目前尚不支援登入其他應用程式；登入後將停留在主控台。',
  signed_in: '登入成功',
  failed: '登入失敗',
  captcha_expired: '圖片已過期，已換一張新的。',
  otp_prompt: '請輸入 {{username}} 的驗證器應用程式中的一次性密碼，也可以使用復原碼。',
  otp_other_account: '使用其他帳戶',
  upstream_button: '使用 {{name}} 登入',
  upstream_or: '或',
  upstream_signing_in: '正在登入…',
};
