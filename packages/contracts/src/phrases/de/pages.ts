import type { Phrases } from '../types.js';

export const pages: Phrases['pages'] = {
  not_available_title: 'Noch nicht verfügbar',
  not_available: 'Diese Ansicht folgt in einer späteren Version. Bis sie wirklich funktioniert, wird hier nichts angezeigt.',
  back_home: 'Zur Startseite',
  exception_403: 'Sie dürfen diese Seite leider nicht aufrufen.',
  exception_404: 'Die aufgerufene Seite existiert leider nicht.',
  exception_500: 'Der Server hat leider einen Fehler gemeldet.',
  chunk_error_title: 'Diese Seite konnte nicht geladen werden',
  chunk_error: 'Das Netzwerk ist vielleicht langsam, oder die Konsole wurde inzwischen aktualisiert.',
  retry: 'Erneut versuchen',
  account_name: 'Kontoname',
  account_id: 'Konto-ID',
  realm: 'Domäne',
  roles: 'Zugewiesene Rollen',
  permissions: 'Berechtigungen',
};
