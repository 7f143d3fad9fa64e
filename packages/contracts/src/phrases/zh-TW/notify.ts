import type { Phrases } from '../types.js';

export const notify: Phrases['notify'] = {
  activate_subject: '啟用您在 {{site}} 的帳號',
  activate_text:
    '{{username}}，您好：\n\n感謝您的註冊。請在 {{hours}} 小時內開啟以下連結，確認您的電子郵件地址：\n{{link}}\n\n如果您沒有註冊過，請忽略本郵件。',
  activate_button: '啟用帳號',
  reset_subject: '重設您在 {{site}} 的密碼',
  reset_text:
    '{{username}}，您好：\n\n有人申請重設您帳號的密碼。請在 {{minutes}} 分鐘內開啟以下連結設定新密碼：\n{{link}}\n\n也可以在重設密碼頁面輸入此驗證碼：{{code}}\n\n如果不是您本人操作，請忽略本郵件，您的密碼不會變更。',
  reset_button: '重設密碼',
  code_subject: '您在 {{site}} 的驗證碼',
  code_text: '您的驗證碼是 {{code}}，{{minutes}} 分鐘內有效。請勿告訴任何人。',
  sms_code: '【{{realm}}】您的驗證碼是 {{code}}，{{minutes}} 分鐘內有效，請勿洩露給他人。',
  footer: '本郵件由 {{site}} 自動發送，請勿回覆。',
  security_subject: '您在 {{site}} 的帳號安全提醒',
  security_text: '{{username}}，您好：\n\n{{event}}\n\n{{advice}}',
  security_advice: '如果不是您本人操作，請立即重設密碼並聯絡管理員。',
  sms_security: '【{{realm}}】安全提醒：{{event}}{{advice}}',
  event_password_changed: '您在 {{site}} 的帳號密碼已於 {{time}} 被變更（IP 位址：{{ip}}）。',
  event_password_reset: '您在 {{site}} 的帳號密碼已於 {{time}} 被重設（IP 位址：{{ip}}）。',
  event_otp_enabled: '您在 {{site}} 的帳號已於 {{time}} 開啟一次性密碼（IP 位址：{{ip}}）。',
  event_otp_disabled: '您在 {{site}} 的帳號已於 {{time}} 關閉一次性密碼（IP 位址：{{ip}}）。',
  event_email_bound: '您在 {{site}} 的帳號已於 {{time}} 綁定電子郵件（IP 位址：{{ip}}）。',
  event_email_changed: '您在 {{site}} 的帳號已於 {{time}} 更換綁定的電子郵件（IP 位址：{{ip}}）。',
  event_email_unbound: '您在 {{site}} 的帳號已於 {{time}} 解除綁定電子郵件（IP 位址：{{ip}}）。',
  event_phone_bound: '您在 {{site}} 的帳號已於 {{time}} 綁定手機號碼（IP 位址：{{ip}}）。',
  event_phone_changed: '您在 {{site}} 的帳號已於 {{time}} 更換綁定的手機號碼（IP 位址：{{ip}}）。',
  event_phone_unbound: '您在 {{site}} 的帳號已於 {{time}} 解除綁定手機號碼（IP 位址：{{ip}}）。',
  cert_expiry_subject: '憑證 {{cn}} 將於 {{date}} 到期',
  cert_expiry_text:
    '{{username}}，您好：\n\n您在 {{site}} 的帳號的憑證 {{cn}}（序號 {{sn}}）將於 {{date}} 到期，還剩 {{days}} 天。請在此之前續期或重新簽發；到期後使用該憑證的裝置和服務將無法連線。',
};
