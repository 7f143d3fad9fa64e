import type { Phrases } from '../types.js';

export const http: Phrases['http'] = {
  forbidden: 'Vietato',
  unauthorized: 'Non autorizzato',
  unauthorized_desc: "Verifica dell'autorizzazione non riuscita",
  request_failed: 'Richiesta non riuscita',
  server_error: 'Errore del server ({{status}})',
  no_response: 'Il server non risponde, riprova più tardi',
  timeout: 'Tempo scaduto per il recupero dei dati',
  roles_missing: 'getInfo: roles deve essere un array non nullo!',
  request_timeout: 'Timeout della richiesta',
  permission_insufficient: 'Autorizzazione non definita o insufficiente',
};
