import type { Phrases } from '../types.js';

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
  security_subject: 'Aviso de segurança da sua conta em {{site}}',
  security_text: 'Olá, {{username}},\n\n{{event}}\n\n{{advice}}',
  security_advice: 'Se não foi você, redefina sua senha agora e entre em contato com o administrador.',
  sms_security: '[{{realm}}] Aviso de segurança: {{event}} {{advice}}',
  event_password_changed: 'A senha da sua conta em {{site}} foi alterada em {{time}} a partir de {{ip}}.',
  event_password_reset: 'A senha da sua conta em {{site}} foi redefinida em {{time}} a partir de {{ip}}.',
  event_otp_enabled: 'As senhas de uso único foram ativadas na sua conta em {{site}} em {{time}} a partir de {{ip}}.',
  event_otp_disabled: 'As senhas de uso único foram desativadas na sua conta em {{site}} em {{time}} a partir de {{ip}}.',
  event_email_bound: 'Um endereço de e-mail foi adicionado à sua conta em {{site}} em {{time}} a partir de {{ip}}.',
  event_email_changed: 'O endereço de e-mail da sua conta em {{site}} foi alterado em {{time}} a partir de {{ip}}.',
  event_email_unbound: 'O endereço de e-mail foi removido da sua conta em {{site}} em {{time}} a partir de {{ip}}.',
  event_phone_bound: 'Um número de telefone foi adicionado à sua conta em {{site}} em {{time}} a partir de {{ip}}.',
  event_phone_changed: 'O número de telefone da sua conta em {{site}} foi alterado em {{time}} a partir de {{ip}}.',
  event_phone_unbound: 'O número de telefone foi removido da sua conta em {{site}} em {{time}} a partir de {{ip}}.',
  cert_expiry_subject: 'O certificado {{cn}} expira em {{date}}',
  cert_expiry_text:
    'Olá {{username}},\n\nO certificado {{cn}} (número de série {{sn}}) da sua conta em {{site}} expira em {{date}}, dentro de {{days}} dias. Renove-o ou emita-o novamente antes disso; dispositivos e serviços que o usam deixarão de se conectar após essa data.',
};
