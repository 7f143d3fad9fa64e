/** List tables of the console (components/data-table.tsx), français. */
import type { Phrases } from '../types.js';

export const table: Phrases['table'] = {
  column_settings: 'Paramètres des colonnes',
  columns_reset: 'Réinitialiser',
  reload: 'Actualiser',
  total: '{{start}}-{{end}} sur {{total}}',
  load_failed: 'La liste n’a pas pu être chargée',
  selected: '{{count}} sélectionné(s)',
  clear_selection: 'Effacer la sélection',
  scroll_area: 'Lignes du tableau, défilantes',
};
