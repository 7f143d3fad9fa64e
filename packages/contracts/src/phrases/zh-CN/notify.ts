import type { Phrases } from '../index.js';

export const notify: Phrases['notify'] = {
  activate_subject: '激活您在 {{site}} 的账号',
  activate_text: '{{username}}，您好：\n\n感谢您的注册。请在 {{hours}} 小时内打开以下链接，确认您的邮箱地址：\n{{link}}\n\n如果您没有注册过，请忽略本邮件。',
  activate_button: '激活账号',
  reset_subject: '重置您在 {{site}} 的密码',
  reset_text: '{{username}}，您好：\n\n有人申请重置您账号的密码。请在 {{minutes}} 分钟内打开以下链接设置新密码：\n{{link}}\n\n也可以在重置密码页面输入此验证码：{{code}}\n\n如果不是您本人操作，请忽略本邮件，您的密码不会改变。',
  reset_button: '重置密码',
  code_subject: '您在 {{site}} 的验证码',
  code_text: '您的验证码是 {{code}}，{{minutes}} 分钟内有效。请勿告诉任何人。',
  sms_code: '【{{realm}}】您的验证码是 {{code}}，{{minutes}} 分钟内有效，请勿泄露给他人。',
  footer: '本邮件由 {{site}} 自动发送，请勿回复。',
};
