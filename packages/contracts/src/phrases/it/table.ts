/** List tables of the console (components/data-table.tsx), italiano. */
import type { Phrases } from '../types.js';

export const table: Phrases['table'] = {
  column_settings: 'Impostazioni colonne',
  columns_reset: 'Ripristina',
  reload: 'Ricarica',
  total: '{{start}}-{{end}} di {{total}}',
  load_failed: 'Impossibile caricare l’elenco',
  selected: '{{count}} selezionati',
  clear_selection: 'Annulla selezione',
  scroll_area: 'Righe della tabella, scorrevoli',
};
