/** List tables of the console (components/data-table.tsx), español. */
import type { Phrases } from '../types.js';

export const table: Phrases['table'] = {
  column_settings: 'Configuración de columnas',
  columns_reset: 'Restablecer',
  reload: 'Recargar',
  total: '{{start}}-{{end}} de {{total}}',
  load_failed: 'No se pudo cargar la lista',
  selected: '{{count}} seleccionados',
  clear_selection: 'Borrar selección',
  scroll_area: 'Filas de la tabla, desplazables',
};
