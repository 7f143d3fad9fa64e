import type { Phrases } from '../types.js';

export const login: Phrases['login'] = {
  subtitle: "Gestione di identità e account per il cloud dell'IoT e della robotica",
  tab_password: 'Account e password',
  username: 'Nome utente',
  password: "Parola d'accesso",
  captcha: 'Codice di verifica',
  captcha_image: "Immagine di verifica; fai clic per averne un'altra",
  captcha_needed: "Per la tua sicurezza, inserisci i caratteri mostrati nell'immagine, poi riprova.",
  submit: 'Accedi',
  register: 'Registra un account',
  forgot: 'Password dimenticata?',
  sso_unavailable: "L'accesso a un'altra applicazione non è ancora disponibile; dopo l'accesso resterai nella console.",
  signed_in: 'Accesso eseguito',
  failed: 'Accesso non riuscito',
  captcha_expired: 'L’immagine è scaduta; eccone una nuova.',
  otp_prompt: 'Inserisci la password monouso della tua app di autenticazione per {{username}}. Va bene anche un codice di recupero.',
  otp_other_account: 'Usa un altro account',
  upstream_button: 'Accedi con {{name}}',
  upstream_or: 'oppure',
  upstream_signing_in: 'Accesso in corso…',
};
