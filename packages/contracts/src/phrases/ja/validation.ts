import type { Phrases } from '../types.js';

export const validation: Phrases['validation'] = {
  required: 'この項目は必須です',
  mobile: '有効な携帯電話番号を入力してください',
  email: '有効なメールアドレスを入力してください',
  username: 'ユーザー名：英字・数字・アンダースコアで 3-24 文字',
  username_same: '新しいユーザー名は現在のユーザー名と異なる必要があります',
  password_min: 'パスワードは 6 文字以上で入力してください',
  password_max: 'パスワードが長すぎます',
  password_mismatch: '入力したパスワードが一致しません',
  mail_code: 'コードは英数字 24 文字です',
  description: '説明：4-50 文字',
  domain: '有効なドメイン名を入力してください',
  url: '有効な http または https の URL を入力してください',
  sub_name: '英字で始まり、英字・数字・アンダースコア・ピリオドで 3-50 文字',
  key_name: 'キー名：英字・数字・アンダースコア・ハイフンで 4-20 文字',
  otp: 'ワンタイムパスワードは 6 桁の数字です',
  color: '#1890ff のような色を入力してください',
  too_short: '{{min}} 文字以上で入力してください',
  too_long: '{{max}} 文字以内で入力してください',
  invalid: '有効な値を入力してください',
};
