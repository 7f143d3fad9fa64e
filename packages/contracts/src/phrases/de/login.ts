import type { Phrases } from '../types.js';

export const login: Phrases['login'] = {
  subtitle: 'Identitäts- und Kontoverwaltung für die IoT- und Robotik-Cloud',
  tab_password: 'Konto und Passwort',
  username: 'Benutzername',
  password: 'Passwort',
  captcha: 'Prüfcode',
  captcha_image: 'Prüfbild; klicken Sie für ein neues',
  captcha_needed: 'Zu Ihrer Sicherheit geben Sie bitte die Zeichen aus dem Bild ein und versuchen Sie es dann erneut.',
  submit: 'Anmelden',
  register: 'Konto registrieren',
  forgot: 'Passwort vergessen?',
  sso_unavailable: 'Die Anmeldung bei einer anderen Anwendung ist noch nicht verfügbar; nach der Anmeldung bleiben Sie in der Konsole.',
  signed_in: 'Angemeldet',
  failed: 'Anmeldung fehlgeschlagen',
  captcha_expired: 'Das Bild ist abgelaufen; hier ist ein neues.',
  otp_prompt: 'Geben Sie das Einmalpasswort aus Ihrer Authenticator-App für {{username}} ein. Ein Wiederherstellungscode funktioniert auch.',
  otp_other_account: 'Anderes Konto verwenden',
  upstream_button: 'Mit {{name}} anmelden',
  upstream_or: 'oder',
  upstream_signing_in: 'Sie werden angemeldet…',
};
