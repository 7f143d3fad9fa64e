import type { Phrases } from '../types.js';

export const http: Phrases['http'] = {
  forbidden: 'Verboten',
  unauthorized: 'Nicht autorisiert',
  unauthorized_desc: 'Die Autorisierungsprüfung ist fehlgeschlagen',
  request_failed: 'Anfrage fehlgeschlagen',
  server_error: 'Serverfehler ({{status}})',
  no_response: 'Der Server antwortet nicht, bitte später erneut versuchen',
  timeout: 'Zeitüberschreitung beim Abrufen der Daten',
  roles_missing: 'getInfo: roles muss ein nicht leeres Array sein!',
  request_timeout: 'Zeitüberschreitung der Anfrage',
  permission_insufficient: 'Berechtigung nicht definiert oder unzureichend',
};
