/** List tables of the console (components/data-table.tsx), português. */
import type { Phrases } from '../types.js';

export const table: Phrases['table'] = {
  column_settings: 'Configurações de colunas',
  columns_reset: 'Redefinir',
  reload: 'Recarregar',
  total: '{{start}}-{{end}} de {{total}}',
  load_failed: 'Não foi possível carregar a lista',
  selected: '{{count}} selecionados',
  clear_selection: 'Limpar seleção',
  scroll_area: 'Linhas da tabela, roláveis',
};
