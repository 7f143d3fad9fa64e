import type { Phrases } from '../types.js';

export const login: Phrases['login'] = {
  subtitle: 'IoT・ロボティクスクラウドの ID とアカウント管理',
  tab_password: 'アカウントとパスワード',
  username: 'ユーザー名',
  password: 'パスワード',
  captcha: '画像認証コード',
  captcha_image: '認証画像（クリックで新しい画像）',
  captcha_needed: 'セキュリティのため、画像に表示されている文字を入力してから、もう一度お試しください。',
  submit: 'ログイン',
  register: 'アカウントを登録',
  forgot: 'パスワードをお忘れですか？',
  sso_unavailable: '他のアプリケーションへのログインはまだ利用できません。ログイン後はコンソールに留まります。',
  signed_in: 'ログインしました',
  failed: 'ログインに失敗しました',
  captcha_expired: '画像の有効期限が切れたため、新しい画像を表示しました。',
  otp_prompt: '{{username}} の認証アプリのワンタイムパスワードを入力してください。リカバリーコードも使えます。',
  otp_other_account: '別のアカウントを使う',
  upstream_button: '{{name}} でサインイン',
  upstream_or: 'または',
  upstream_signing_in: 'サインインしています…',
};
