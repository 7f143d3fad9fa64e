import type { Phrases } from '../index.js';

export const notify: Phrases['notify'] = {
  activate_subject: '啟用您在 {{site}} 的帳號',
  activate_text: '{{username}}，您好：\n\n感謝您的註冊。請在 {{hours}} 小時內開啟以下連結，確認您的電子郵件地址：\n{{link}}\n\n如果您沒有註冊過，請忽略本郵件。',
  activate_button: '啟用帳號',
  reset_subject: '重設您在 {{site}} 的密碼',
  reset_text: '{{username}}，您好：\n\n有人申請重設您帳號的密碼。請在 {{minutes}} 分鐘內開啟以下連結設定新密碼：\n{{link}}\n\n也可以在重設密碼頁面輸入此驗證碼：{{code}}\n\n如果不是您本人操作，請忽略本郵件，您的密碼不會變更。',
  reset_button: '重設密碼',
  code_subject: '您在 {{site}} 的驗證碼',
  code_text: '您的驗證碼是 {{code}}，{{minutes}} 分鐘內有效。請勿告訴任何人。',
  sms_code: '【{{realm}}】您的驗證碼是 {{code}}，{{minutes}} 分鐘內有效，請勿洩露給他人。',
  footer: '本郵件由 {{site}} 自動發送，請勿回覆。',
};
