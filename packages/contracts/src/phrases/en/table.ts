/** List tables of the console (components/data-table.tsx), English reference. */
export const table = {
  column_settings: 'Column settings',
  columns_reset: 'Reset',
  reload: 'Reload',
  total: '{{start}}-{{end}} of {{total}}',
  load_failed: 'The list could not be loaded',
  selected: '{{count}} selected',
  clear_selection: 'Clear selection',
  scroll_area: 'Table rows, scrollable',
};
