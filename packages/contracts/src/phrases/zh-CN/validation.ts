import type { Phrases } from '../types.js';

export const validation: Phrases['validation'] = {
  required: '此项为必填项',
  mobile: '请输入正确的手机号',
  email: '请输入正确的邮箱地址',
  username: '用户名：3-24 位字母、数字或下划线',
  username_same: '新用户名不能与原用户名相同',
  password_min: '密码至少 6 位',
  password_max: '密码过长',
  password_mismatch: '两次输入的密码不匹配',
  mail_code: '验证码为 24 位字母或数字',
  description: '描述：4-50 个字符',
  domain: '请输入正确的域名',
  url: '请输入正确的 http 或 https 地址',
  sub_name: '以字母开头，可包含字母、数字、下划线或点，3-50 个字符',
  key_name: '密钥名称：4-20 位字母、数字、下划线或连字符',
  otp: '一次性密码为 6 位数字',
  color: '请输入颜色，例如 #1890ff',
  too_short: '至少 {{min}} 个字符',
  too_long: '最多 {{max}} 个字符',
  invalid: '请输入有效的值',
};
