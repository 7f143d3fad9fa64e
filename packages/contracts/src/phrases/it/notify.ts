import type { Phrases } from '../index.js';

export const notify: Phrases['notify'] = {
  activate_subject: 'Attiva il tuo account su {{site}}',
  activate_text:
    "Ciao {{username}},\n\ngrazie per esserti registrato. Conferma il tuo indirizzo email aprendo questo link entro {{hours}} ore:\n{{link}}\n\nSe non ti sei registrato, ignora questo messaggio.",
  activate_button: 'Attiva account',
  reset_subject: 'Reimposta la tua password su {{site}}',
  reset_text:
    "Ciao {{username}},\n\nè stata richiesta la reimpostazione della password del tuo account. Apri questo link entro {{minutes}} minuti per scegliere una nuova password:\n{{link}}\n\nOppure inserisci questo codice nella pagina di reimpostazione: {{code}}\n\nSe non sei stato tu, ignora questo messaggio: la tua password resta invariata.",
  reset_button: 'Reimposta password',
  code_subject: 'Il tuo codice di verifica per {{site}}',
  code_text: 'Il tuo codice di verifica è {{code}}. È valido per {{minutes}} minuti. Non condividerlo con nessuno.',
  sms_code: '[{{realm}}] Il tuo codice di verifica è {{code}}, valido per {{minutes}} minuti. Non condividerlo con nessuno.',
  footer: 'Questo messaggio è stato inviato automaticamente da {{site}}; non rispondere.',
};
