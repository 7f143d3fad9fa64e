import type { Phrases } from '../types.js';

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
  security_subject: 'Aviso de seguridad de su cuenta en {{site}}',
  security_text: 'Hola, {{username}}:\n\n{{event}}\n\n{{advice}}',
  security_advice: 'Si no fue usted, restablezca su contraseña ahora y póngase en contacto con su administrador.',
  sms_security: '[{{realm}}] Aviso de seguridad: {{event}} {{advice}}',
  event_password_changed: 'La contraseña de su cuenta en {{site}} se cambió el {{time}} desde {{ip}}.',
  event_password_reset: 'La contraseña de su cuenta en {{site}} se restableció el {{time}} desde {{ip}}.',
  event_otp_enabled: 'Se activaron las contraseñas de un solo uso de su cuenta en {{site}} el {{time}} desde {{ip}}.',
  event_otp_disabled: 'Se desactivaron las contraseñas de un solo uso de su cuenta en {{site}} el {{time}} desde {{ip}}.',
  event_email_bound: 'Se añadió una dirección de correo a su cuenta en {{site}} el {{time}} desde {{ip}}.',
  event_email_changed: 'La dirección de correo de su cuenta en {{site}} se cambió el {{time}} desde {{ip}}.',
  event_email_unbound: 'Se eliminó la dirección de correo de su cuenta en {{site}} el {{time}} desde {{ip}}.',
  event_phone_bound: 'Se añadió un número de teléfono a su cuenta en {{site}} el {{time}} desde {{ip}}.',
  event_phone_changed: 'El número de teléfono de su cuenta en {{site}} se cambió el {{time}} desde {{ip}}.',
  event_phone_unbound: 'Se eliminó el número de teléfono de su cuenta en {{site}} el {{time}} desde {{ip}}.',
  cert_expiry_subject: 'El certificado {{cn}} caduca el {{date}}',
  cert_expiry_text:
    'Hola {{username}}:\n\nEl certificado {{cn}} (número de serie {{sn}}) de su cuenta en {{site}} caduca el {{date}}, dentro de {{days}} días. Renuévelo o vuelva a emitirlo antes; los dispositivos y servicios que lo usan no podrán conectarse después de esa fecha.',
};
