import type { Phrases } from '../types.js';

export const validation: Phrases['validation'] = {
  required: 'Questo campo è obbligatorio',
  mobile: 'Inserire un numero di cellulare valido',
  email: 'Inserire un indirizzo email valido',
  username: 'Nome utente: 3-24 lettere, cifre o trattini bassi',
  username_same: 'Il nuovo nome utente deve essere diverso da quello attuale',
  password_min: 'La password deve contenere almeno 6 caratteri',
  password_max: 'La password è troppo lunga',
  password_mismatch: 'Le password inserite non corrispondono',
  mail_code: 'Il codice è composto da 24 lettere o cifre',
  description: 'Descrizione: 4-50 caratteri',
  domain: 'Inserire un nome di dominio valido',
  url: 'Inserire un URL http o https valido',
  sub_name: 'Inizia con una lettera, seguita da lettere, cifre, trattino basso o punto; 3-50 caratteri',
  key_name: 'Nome chiave: 4-20 lettere, cifre, trattini bassi o trattini',
  otp: 'La password monouso è di 6 cifre',
  color: 'Inserisci un colore, ad esempio #1890ff',
  too_short: 'Almeno {{min}} caratteri',
  too_long: 'Al massimo {{max}} caratteri',
  invalid: 'Inserire un valore valido',
};
