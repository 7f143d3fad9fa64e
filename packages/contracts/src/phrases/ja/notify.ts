import type { Phrases } from '../index.js';

export const notify: Phrases['notify'] = {
  activate_subject: '{{site}} のアカウントを有効にしてください',
  activate_text: '{{username}} 様\n\nご登録ありがとうございます。{{hours}} 時間以内に次のリンクを開いて、メールアドレスを確認してください：\n{{link}}\n\nお心当たりがない場合は、このメールを無視してください。',
  activate_button: 'アカウントを有効にする',
  reset_subject: '{{site}} のパスワード再設定',
  reset_text: '{{username}} 様\n\nお客様のアカウントのパスワード再設定が申請されました。{{minutes}} 分以内に次のリンクを開いて、新しいパスワードを設定してください：\n{{link}}\n\nまたは、パスワード再設定ページで次のコードを入力してください：{{code}}\n\nお心当たりがない場合は、このメールを無視してください。パスワードは変更されません。',
  reset_button: 'パスワードを再設定',
  code_subject: '{{site}} の確認コード',
  code_text: '確認コードは {{code}} です。有効期間は {{minutes}} 分です。誰にも教えないでください。',
  sms_code: '【{{realm}}】確認コードは {{code}} です（{{minutes}} 分間有効）。他人に教えないでください。',
  footer: 'このメールは {{site}} から自動送信されています。返信しないでください。',
};
