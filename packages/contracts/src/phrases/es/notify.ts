import type { Phrases } from '../index.js';

export const notify: Phrases['notify'] = {
  activate_subject: 'Active su cuenta en {{site}}',
  activate_text:
    'Hola, {{username}}:\n\nGracias por registrarse. Confirme su dirección de correo electrónico abriendo este enlace en las próximas {{hours}} horas:\n{{link}}\n\nSi no se ha registrado, puede ignorar este mensaje.',
  activate_button: 'Activar cuenta',
  reset_subject: 'Restablezca su contraseña en {{site}}',
  reset_text:
    'Hola, {{username}}:\n\nAlguien ha solicitado restablecer la contraseña de su cuenta. Abra este enlace en los próximos {{minutes}} minutos para elegir una nueva contraseña:\n{{link}}\n\nO introduzca este código en la página de restablecimiento: {{code}}\n\nSi no ha sido usted, ignore este mensaje; su contraseña no cambiará.',
  reset_button: 'Restablecer contraseña',
  code_subject: 'Su código de verificación para {{site}}',
  code_text: 'Su código de verificación es {{code}}. Es válido durante {{minutes}} minutos. No lo comparta con nadie.',
  sms_code: '[{{realm}}] Su código de verificación es {{code}}, válido durante {{minutes}} minutos. No lo comparta con nadie.',
  footer: 'Este mensaje ha sido enviado automáticamente por {{site}}; no responda a él.',
};
