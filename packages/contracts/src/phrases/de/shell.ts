import type { Phrases } from '../types.js';

export const shell: Phrases['shell'] = {
  site_title: 'Benutzerverwaltung',
  personal_center: 'Persönlicher Bereich',
  logout: 'Abmelden',
  login: 'Anmelden',
  logout_confirm: 'Möchten Sie sich wirklich abmelden?',
  settings: 'Seiteneinstellungen',
  collapse: 'Menü einklappen',
  expand: 'Menü ausklappen',
  language: 'Sprache',
  loading: 'Wird geladen…',
  tab_actions: 'Tab-Aktionen',
  close_current: 'Aktuellen Tab schließen',
  close_right: 'Tabs rechts schließen',
  close_left: 'Tabs links schließen',
  close_all: 'Alle Tabs schließen',
  last_tab: 'Dies ist der letzte Tab und kann nicht geschlossen werden',
  no_left: 'Links gibt es keinen Tab',
  no_right: 'Rechts gibt es keinen Tab',
  close_tab: 'Tab schließen',
};
