import type { Phrases } from '../index.js';

export const notify: Phrases['notify'] = {
  activate_subject: 'Ative sua conta em {{site}}',
  activate_text:
    'Olá, {{username}},\n\nObrigado por se cadastrar. Confirme seu endereço de e-mail abrindo este link em até {{hours}} horas:\n{{link}}\n\nSe você não se cadastrou, ignore esta mensagem.',
  activate_button: 'Ativar conta',
  reset_subject: 'Redefina sua senha em {{site}}',
  reset_text:
    'Olá, {{username}},\n\nFoi solicitada a redefinição da senha da sua conta. Abra este link em até {{minutes}} minutos para escolher uma nova senha:\n{{link}}\n\nOu digite este código na página de redefinição de senha: {{code}}\n\nSe não foi você, ignore esta mensagem; sua senha continua a mesma.',
  reset_button: 'Redefinir senha',
  code_subject: 'Seu código de verificação para {{site}}',
  code_text: 'Seu código de verificação é {{code}}. Ele é válido por {{minutes}} minutos. Nunca o compartilhe com ninguém.',
  sms_code: '[{{realm}}] Seu código de verificação é {{code}}, válido por {{minutes}} minutos. Não o compartilhe com ninguém.',
  footer: 'Esta mensagem foi enviada automaticamente por {{site}}; não responda.',
};
