import type { Phrases } from '../types.js';

export const login: Phrases['login'] = {
  subtitle: 'Gestão de identidades e contas para a nuvem de IoT e robótica',
  tab_password: 'Conta e senha',
  username: 'Nome de usuário',
  password: 'Senha',
  captcha: 'Código de verificação',
  captcha_image: 'Imagem de verificação; clique para obter outra',
  captcha_needed: 'Para sua segurança, digite os caracteres mostrados na imagem e tente novamente.',
  submit: 'Entrar',
  register: 'Cadastrar uma conta',
  forgot: 'Esqueceu a senha?',
  sso_unavailable: 'Entrar em outro aplicativo ainda não está disponível; depois de entrar você permanece no console.',
  signed_in: 'Sessão iniciada',
  failed: 'Falha no início de sessão',
  captcha_expired: 'A imagem expirou; aqui está uma nova.',
  otp_prompt: 'Introduza a palavra-passe de uso único da sua aplicação de autenticação para {{username}}. Um código de recuperação também serve.',
  otp_other_account: 'Usar outra conta',
  upstream_button: 'Entrar com {{name}}',
  upstream_or: 'ou',
  upstream_signing_in: 'Entrando…',
};
