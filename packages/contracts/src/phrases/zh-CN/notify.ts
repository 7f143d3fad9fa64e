import type { Phrases } from '../types.js';

export const notify: Phrases['notify'] = {
  activate_subject: '激活您在 {{site}} 的账号',
  activate_text: '{{username}}，您好：\n\n感谢您的注册。请在 {{hours}} 小时内打开以下链接，确认您的邮箱地址：\n{{link}}\n\n如果您没有注册过，请忽略本邮件。',
  activate_button: '激活账号',
  reset_subject: '重置您在 {{site}} 的密码',
  reset_text:
    '{{username}}，您好：\n\n有人申请重置您账号的密码。请在 {{minutes}} 分钟内打开以下链接设置新密码：\n{{link}}\n\n也可以在重置密码页面输入此验证码：{{code}}\n\n如果不是您本人操作，请忽略本邮件，您的密码不会改变。',
  reset_button: '重置密码',
  code_subject: '您在 {{site}} 的验证码',
  code_text: '您的验证码是 {{code}}，{{minutes}} 分钟内有效。请勿告诉任何人。',
  sms_code: '【{{realm}}】您的验证码是 {{code}}，{{minutes}} 分钟内有效，请勿泄露给他人。',
  footer: '本邮件由 {{site}} 自动发送，请勿回复。',
  security_subject: '您在 {{site}} 的账号安全提醒',
  security_text: '{{username}}，您好：\n\n{{event}}\n\n{{advice}}',
  security_advice: '如果不是您本人操作，请立即重置密码并联系管理员。',
  sms_security: '【{{realm}}】安全提醒：{{event}}{{advice}}',
  event_password_changed: '您在 {{site}} 的账号密码已于 {{time}} 被修改（IP 地址：{{ip}}）。',
  event_password_reset: '您在 {{site}} 的账号密码已于 {{time}} 被重置（IP 地址：{{ip}}）。',
  event_otp_enabled: '您在 {{site}} 的账号已于 {{time}} 开启一次性密码（IP 地址：{{ip}}）。',
  event_otp_disabled: '您在 {{site}} 的账号已于 {{time}} 关闭一次性密码（IP 地址：{{ip}}）。',
  event_email_bound: '您在 {{site}} 的账号已于 {{time}} 绑定邮箱（IP 地址：{{ip}}）。',
  event_email_changed: '您在 {{site}} 的账号已于 {{time}} 更换绑定的邮箱（IP 地址：{{ip}}）。',
  event_email_unbound: '您在 {{site}} 的账号已于 {{time}} 解绑邮箱（IP 地址：{{ip}}）。',
  event_phone_bound: '您在 {{site}} 的账号已于 {{time}} 绑定手机号（IP 地址：{{ip}}）。',
  event_phone_changed: '您在 {{site}} 的账号已于 {{time}} 更换绑定的手机号（IP 地址：{{ip}}）。',
  event_phone_unbound: '您在 {{site}} 的账号已于 {{time}} 解绑手机号（IP 地址：{{ip}}）。',
  cert_expiry_subject: '证书 {{cn}} 将于 {{date}} 到期',
  cert_expiry_text:
    '{{username}}，您好：\n\n您在 {{site}} 的账号的证书 {{cn}}（序列号 {{sn}}）将于 {{date}} 到期，还剩 {{days}} 天。请在此之前续期或重新签发；到期后使用该证书的设备和服务将无法连接。',
};
