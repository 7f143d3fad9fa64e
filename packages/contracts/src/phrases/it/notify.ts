import type { Phrases } from '../types.js';

export const notify: Phrases['notify'] = {
  activate_subject: 'Attiva il tuo account su {{site}}',
  activate_text:
    'Ciao {{username}},\n\ngrazie per esserti registrato. Conferma il tuo indirizzo email aprendo questo link entro {{hours}} ore:\n{{link}}\n\nSe non ti sei registrato, ignora questo messaggio.',
  activate_button: 'Attiva account',
  reset_subject: 'Reimposta la tua password su {{site}}',
  reset_text:
    'Ciao {{username}},\n\nè stata richiesta la reimpostazione della password del tuo account. Apri questo link entro {{minutes}} minuti per scegliere una nuova password:\n{{link}}\n\nOppure inserisci questo codice nella pagina di reimpostazione: {{code}}\n\nSe non sei stato tu, ignora questo messaggio: la tua password resta invariata.',
  reset_button: 'Reimposta password',
  code_subject: 'Il tuo codice di verifica per {{site}}',
  code_text: 'Il tuo codice di verifica è {{code}}. È valido per {{minutes}} minuti. Non condividerlo con nessuno.',
  sms_code: '[{{realm}}] Il tuo codice di verifica è {{code}}, valido per {{minutes}} minuti. Non condividerlo con nessuno.',
  footer: 'Questo messaggio è stato inviato automaticamente da {{site}}; non rispondere.',
  security_subject: 'Avviso di sicurezza per il tuo account su {{site}}',
  security_text: 'Ciao {{username}},\n\n{{event}}\n\n{{advice}}',
  security_advice: "Se non sei stato tu, reimposta subito la password e contatta l'amministratore.",
  sms_security: '[{{realm}}] Avviso di sicurezza: {{event}} {{advice}}',
  event_password_changed: 'La password del tuo account su {{site}} è stata modificata il {{time}} da {{ip}}.',
  event_password_reset: 'La password del tuo account su {{site}} è stata reimpostata il {{time}} da {{ip}}.',
  event_otp_enabled: 'Le password monouso sono state attivate per il tuo account su {{site}} il {{time}} da {{ip}}.',
  event_otp_disabled: 'Le password monouso sono state disattivate per il tuo account su {{site}} il {{time}} da {{ip}}.',
  event_email_bound: 'Un indirizzo e-mail è stato aggiunto al tuo account su {{site}} il {{time}} da {{ip}}.',
  event_email_changed: "L'indirizzo e-mail del tuo account su {{site}} è stato modificato il {{time}} da {{ip}}.",
  event_email_unbound: "L'indirizzo e-mail è stato rimosso dal tuo account su {{site}} il {{time}} da {{ip}}.",
  event_phone_bound: 'Un numero di telefono è stato aggiunto al tuo account su {{site}} il {{time}} da {{ip}}.',
  event_phone_changed: 'Il numero di telefono del tuo account su {{site}} è stato modificato il {{time}} da {{ip}}.',
  event_phone_unbound: 'Il numero di telefono è stato rimosso dal tuo account su {{site}} il {{time}} da {{ip}}.',
  cert_expiry_subject: 'Il certificato {{cn}} scade il {{date}}',
  cert_expiry_text:
    'Ciao {{username}},\n\nil certificato {{cn}} (numero di serie {{sn}}) del tuo account su {{site}} scade il {{date}}, tra {{days}} giorni. Rinnovalo o riemettilo prima di allora; dispositivi e servizi che lo usano non potranno più connettersi dopo quella data.',
};
