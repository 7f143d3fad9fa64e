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
};
