import type { Phrases } from '../types.js';

export const login: Phrases['login'] = {
  subtitle: '物联网与机器人云的身份与账号管理',
  tab_password: '账户密码登录',
  username: '用户名',
  password: '密码',
  captcha: '图形验证码',
  captcha_image: '验证码图片，点击换一张',
  captcha_needed: '为了账户安全，请输入图片中的字符后再试一次。',
  submit: '登录',
  register: '注册账户',
  forgot: '忘记密码？',
  sso_unavailable: '暂不支持登录到其他应用；登录后将停留在控制台。',
  signed_in: '登录成功',
  failed: '登录失败',
  captcha_expired: '图片已过期，已换一张新的。',
  otp_prompt: '请输入 {{username}} 的身份验证器应用中的一次性密码，也可以使用恢复码。',
  otp_other_account: '使用其他账户',
  upstream_button: '使用 {{name}} 登录',
  upstream_or: '或',
  upstream_signing_in: '正在登录…',
};
