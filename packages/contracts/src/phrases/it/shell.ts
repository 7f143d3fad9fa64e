import type { Phrases } from '../types.js';

export const shell: Phrases['shell'] = {
  site_title: 'Console di gestione utenti',
  personal_center: 'Area personale',
  logout: 'Esci',
  login: 'Accedi',
  logout_confirm: 'Vuoi davvero uscire?',
  settings: 'Impostazioni pagina',
  collapse: 'Comprimi menu',
  expand: 'Espandi menu',
  language: 'Lingua',
  loading: 'Caricamento…',
  tab_actions: 'Azioni sulle schede',
  close_current: 'Chiudi la scheda corrente',
  close_right: 'Chiudi le schede a destra',
  close_left: 'Chiudi le schede a sinistra',
  close_all: 'Chiudi tutte le schede',
  last_tab: "Questa è l'ultima scheda e non può essere chiusa",
  no_left: 'Non ci sono schede a sinistra',
  no_right: 'Non ci sono schede a destra',
  close_tab: 'Chiudi scheda',
};
