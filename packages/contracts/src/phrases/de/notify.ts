import type { Phrases } from '../types.js';

export const notify: Phrases['notify'] = {
  activate_subject: 'Aktivieren Sie Ihr Konto bei {{site}}',
  activate_text:
    'Hallo {{username}},\n\nvielen Dank für Ihre Registrierung. Bitte bestätigen Sie Ihre E-Mail-Adresse, indem Sie diesen Link innerhalb von {{hours}} Stunden öffnen:\n{{link}}\n\nWenn Sie sich nicht registriert haben, können Sie diese Nachricht ignorieren.',
  activate_button: 'Konto aktivieren',
  reset_subject: 'Setzen Sie Ihr Passwort bei {{site}} zurück',
  reset_text:
    'Hallo {{username}},\n\njemand hat angefordert, das Passwort Ihres Kontos zurückzusetzen. Öffnen Sie diesen Link innerhalb von {{minutes}} Minuten, um ein neues Passwort zu wählen:\n{{link}}\n\nOder geben Sie diesen Code auf der Seite zum Zurücksetzen ein: {{code}}\n\nWenn Sie das nicht waren, ignorieren Sie diese Nachricht; Ihr Passwort bleibt unverändert.',
  reset_button: 'Passwort zurücksetzen',
  code_subject: 'Ihr Bestätigungscode für {{site}}',
  code_text: 'Ihr Bestätigungscode lautet {{code}}. Er ist {{minutes}} Minuten gültig. Geben Sie ihn niemals weiter.',
  sms_code: '[{{realm}}] Ihr Bestätigungscode lautet {{code}}, gültig für {{minutes}} Minuten. Geben Sie ihn nicht weiter.',
  footer: 'Diese Nachricht wurde automatisch von {{site}} gesendet; bitte antworten Sie nicht darauf.',
  security_subject: 'Sicherheitshinweis zu Ihrem Konto bei {{site}}',
  security_text: 'Hallo {{username}},\n\n{{event}}\n\n{{advice}}',
  security_advice: 'Wenn Sie das nicht waren, setzen Sie Ihr Passwort sofort zurück und wenden Sie sich an Ihren Administrator.',
  sms_security: '[{{realm}}] Sicherheitshinweis: {{event}} {{advice}}',
  event_password_changed: 'Das Passwort Ihres Kontos bei {{site}} wurde am {{time}} von {{ip}} aus geändert.',
  event_password_reset: 'Das Passwort Ihres Kontos bei {{site}} wurde am {{time}} von {{ip}} aus zurückgesetzt.',
  event_otp_enabled: 'Einmalpasswörter wurden für Ihr Konto bei {{site}} am {{time}} von {{ip}} aus eingeschaltet.',
  event_otp_disabled: 'Einmalpasswörter wurden für Ihr Konto bei {{site}} am {{time}} von {{ip}} aus ausgeschaltet.',
  event_email_bound: 'Ihrem Konto bei {{site}} wurde am {{time}} von {{ip}} aus eine E-Mail-Adresse hinzugefügt.',
  event_email_changed: 'Die E-Mail-Adresse Ihres Kontos bei {{site}} wurde am {{time}} von {{ip}} aus geändert.',
  event_email_unbound: 'Die E-Mail-Adresse wurde am {{time}} von {{ip}} aus von Ihrem Konto bei {{site}} entfernt.',
  event_phone_bound: 'Ihrem Konto bei {{site}} wurde am {{time}} von {{ip}} aus eine Telefonnummer hinzugefügt.',
  event_phone_changed: 'Die Telefonnummer Ihres Kontos bei {{site}} wurde am {{time}} von {{ip}} aus geändert.',
  event_phone_unbound: 'Die Telefonnummer wurde am {{time}} von {{ip}} aus von Ihrem Konto bei {{site}} entfernt.',
  cert_expiry_subject: 'Zertifikat {{cn}} läuft am {{date}} ab',
  cert_expiry_text:
    'Hallo {{username}},\n\ndas Zertifikat {{cn}} (Seriennummer {{sn}}) Ihres Kontos bei {{site}} läuft am {{date}} ab, in {{days}} Tagen. Erneuern oder stellen Sie es vorher neu aus; Geräte und Dienste, die es verwenden, können sich danach nicht mehr verbinden.',
};
