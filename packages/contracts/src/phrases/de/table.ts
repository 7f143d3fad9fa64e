/** List tables of the console (components/data-table.tsx), Deutsch. */
import type { Phrases } from '../types.js';

export const table: Phrases['table'] = {
  column_settings: 'Spalteneinstellungen',
  columns_reset: 'Zurücksetzen',
  reload: 'Neu laden',
  total: '{{start}}-{{end}} von {{total}}',
  load_failed: 'Die Liste konnte nicht geladen werden',
  selected: '{{count}} ausgewählt',
  clear_selection: 'Auswahl aufheben',
  scroll_area: 'Tabellenzeilen, scrollbar',
};
