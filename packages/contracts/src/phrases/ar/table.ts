/** List tables of the console (components/data-table.tsx), العربية. */
import type { Phrases } from '../types.js';

export const table: Phrases['table'] = {
  column_settings: 'إعدادات الأعمدة',
  columns_reset: 'إعادة تعيين',
  reload: 'إعادة تحميل',
  total: '{{start}}-{{end}} من {{total}}',
  load_failed: 'تعذّر تحميل القائمة',
  selected: 'تم تحديد {{count}}',
  clear_selection: 'مسح التحديد',
  scroll_area: 'صفوف الجدول، قابلة للتمرير',
};
