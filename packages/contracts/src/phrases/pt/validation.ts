import type { Phrases } from '../types.js';

export const validation: Phrases['validation'] = {
  required: 'Este campo é obrigatório',
  mobile: 'Digite um número de celular válido',
  email: 'Digite um endereço de e-mail válido',
  username: 'Nome de usuário: 3-24 letras, dígitos ou sublinhados',
  username_same: 'O novo nome de usuário deve ser diferente do atual',
  password_min: 'A senha deve ter pelo menos 6 caracteres',
  password_max: 'A senha é muito longa',
  password_mismatch: 'As senhas digitadas não coincidem',
  mail_code: 'O código tem 24 letras ou dígitos',
  description: 'Descrição: 4-50 caracteres',
  domain: 'Digite um nome de domínio válido',
  url: 'Digite uma URL http ou https válida',
  sub_name: 'Começa com uma letra, seguida de letras, dígitos, sublinhado ou ponto; 3-50 caracteres',
  key_name: 'Nome da chave: 4-20 letras, dígitos, sublinhados ou hifens',
  otp: 'A senha de uso único tem 6 dígitos',
  color: 'Introduza uma cor, por exemplo #1890ff',
  too_short: 'Pelo menos {{min}} caracteres',
  too_long: 'No máximo {{max}} caracteres',
  invalid: 'Digite um valor válido',
};
