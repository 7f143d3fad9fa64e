import type { Phrases } from '../types.js';

export const pages: Phrases['pages'] = {
  not_available_title: 'Non ancora disponibile',
  not_available: 'Questa schermata arriverà in una versione successiva. Qui non viene mostrato nulla finché non funziona davvero.',
  back_home: 'Torna alla home',
  exception_403: 'Spiacenti, non hai accesso a questa pagina.',
  exception_404: 'Spiacenti, la pagina visitata non esiste.',
  exception_500: 'Spiacenti, il server ha segnalato un errore.',
  chunk_error_title: 'Impossibile caricare questa pagina',
  chunk_error: 'La rete potrebbe essere lenta, oppure la console è stata aggiornata nel frattempo.',
  retry: 'Riprova',
  account_name: "Nome dell'account",
  account_id: "ID dell'account",
  realm: 'Dominio',
  roles: 'Ruoli assegnati',
  permissions: 'Permessi',
};
