/** Mail and SMS texts (issue 3), English reference. Placeholders are filled by the server. */
export const notify = {
  activate_subject: 'Activate your account at {{site}}',
  activate_text:
    'Hello {{username}},\n\nThank you for registering. Please confirm your email address by opening this link within {{hours}} hours:\n{{link}}\n\nIf you did not register, you can ignore this message.',
  activate_button: 'Activate account',
  reset_subject: 'Reset your password at {{site}}',
  reset_text:
    'Hello {{username}},\n\nSomeone asked to reset the password of your account. Open this link within {{minutes}} minutes to choose a new password:\n{{link}}\n\nOr enter this code on the password reset page: {{code}}\n\nIf it was not you, ignore this message; your password stays unchanged.',
  reset_button: 'Reset password',
  code_subject: 'Your verification code for {{site}}',
  code_text: 'Your verification code is {{code}}. It is valid for {{minutes}} minutes. Never share it with anyone.',
  sms_code: '[{{realm}}] Your verification code is {{code}}, valid for {{minutes}} minutes. Do not share it with anyone.',
  footer: 'This message was sent automatically by {{site}}; please do not reply.',
  // Security notices (account/security-notices.ts, ASVS V6.3.7): one sentence per event, no secrets.
  security_subject: 'Security notice for your account at {{site}}',
  security_text: 'Hello {{username}},\n\n{{event}}\n\n{{advice}}',
  security_advice: 'If this was not you, reset your password now and contact your administrator.',
  sms_security: '[{{realm}}] Security notice: {{event}} {{advice}}',
  event_password_changed: 'The password of your account at {{site}} was changed on {{time}} from {{ip}}.',
  event_password_reset: 'The password of your account at {{site}} was reset on {{time}} from {{ip}}.',
  event_otp_enabled: 'One-time passwords were turned on for your account at {{site}} on {{time}} from {{ip}}.',
  event_otp_disabled: 'One-time passwords were turned off for your account at {{site}} on {{time}} from {{ip}}.',
  event_email_bound: 'An email address was added to your account at {{site}} on {{time}} from {{ip}}.',
  event_email_changed: 'The email address of your account at {{site}} was changed on {{time}} from {{ip}}.',
  event_email_unbound: 'The email address was removed from your account at {{site}} on {{time}} from {{ip}}.',
  event_phone_bound: 'A phone number was added to your account at {{site}} on {{time}} from {{ip}}.',
  event_phone_changed: 'The phone number of your account at {{site}} was changed on {{time}} from {{ip}}.',
  event_phone_unbound: 'The phone number was removed from your account at {{site}} on {{time}} from {{ip}}.',
  // Certificate expiry notices (pki/expiry-notices.ts): the certificate, its serial and end date; no secrets.
  cert_expiry_subject: 'Certificate {{cn}} expires on {{date}}',
  cert_expiry_text:
    'Hello {{username}},\n\nThe certificate {{cn}} (serial {{sn}}) of your account at {{site}} expires on {{date}}, in {{days}} days. Renew or reissue it before then; devices and services using it can no longer connect after that date.',
};
