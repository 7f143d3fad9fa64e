import type { Phrases } from '../types.js';

export const notify: Phrases['notify'] = {
  activate_subject: '{{site}} のアカウントを有効にしてください',
  activate_text:
    '{{username}} 様\n\nご登録ありがとうございます。{{hours}} 時間以内に次のリンクを開いて、メールアドレスを確認してください：\n{{link}}\n\nお心当たりがない場合は、このメールを無視してください。',
  activate_button: 'アカウントを有効にする',
  reset_subject: '{{site}} のパスワード再設定',
  reset_text:
    '{{username}} 様\n\nお客様のアカウントのパスワード再設定が申請されました。{{minutes}} 分以内に次のリンクを開いて、新しいパスワードを設定してください：\n{{link}}\n\nまたは、パスワード再設定ページで次のコードを入力してください：{{code}}\n\nお心当たりがない場合は、このメールを無視してください。パスワードは変更されません。',
  reset_button: 'パスワードを再設定',
  code_subject: '{{site}} の確認コード',
  code_text: '確認コードは {{code}} です。有効期間は {{minutes}} 分です。誰にも教えないでください。',
  sms_code: '【{{realm}}】確認コードは {{code}} です（{{minutes}} 分間有効）。他人に教えないでください。',
  footer: 'このメールは {{site}} から自動送信されています。返信しないでください。',
  security_subject: '{{site}} のアカウントに関するセキュリティのお知らせ',
  security_text: '{{username}} 様\n\n{{event}}\n\n{{advice}}',
  security_advice: 'お心当たりがない場合は、すぐにパスワードを再設定し、管理者に連絡してください。',
  sms_security: '【{{realm}}】セキュリティのお知らせ：{{event}}{{advice}}',
  event_password_changed: '{{site}} のアカウントのパスワードが {{time}} に変更されました（IP アドレス：{{ip}}）。',
  event_password_reset: '{{site}} のアカウントのパスワードが {{time}} に再設定されました（IP アドレス：{{ip}}）。',
  event_otp_enabled: '{{site}} のアカウントでワンタイムパスワードが {{time}} に有効になりました（IP アドレス：{{ip}}）。',
  event_otp_disabled: '{{site}} のアカウントでワンタイムパスワードが {{time}} に無効になりました（IP アドレス：{{ip}}）。',
  event_email_bound: '{{site}} のアカウントにメールアドレスが {{time}} に登録されました（IP アドレス：{{ip}}）。',
  event_email_changed: '{{site}} のアカウントのメールアドレスが {{time}} に変更されました（IP アドレス：{{ip}}）。',
  event_email_unbound: '{{site}} のアカウントからメールアドレスが {{time}} に削除されました（IP アドレス：{{ip}}）。',
  event_phone_bound: '{{site}} のアカウントに電話番号が {{time}} に登録されました（IP アドレス：{{ip}}）。',
  event_phone_changed: '{{site}} のアカウントの電話番号が {{time}} に変更されました（IP アドレス：{{ip}}）。',
  event_phone_unbound: '{{site}} のアカウントから電話番号が {{time}} に削除されました（IP アドレス：{{ip}}）。',
  cert_expiry_subject: '証明書 {{cn}} の有効期限は {{date}} です',
  cert_expiry_text:
    '{{username}} 様\n\n{{site}} のアカウントの証明書 {{cn}}（シリアル番号 {{sn}}）は {{date}}（あと {{days}} 日）に有効期限が切れます。それまでに更新または再発行してください。期限後は、この証明書を使うデバイスやサービスは接続できなくなります。',
};
