import type { Phrases } from '../types.js';

export const shell: Phrases['shell'] = {
  site_title: 'لوحة إدارة المستخدمين',
  personal_center: 'المركز الشخصي',
  logout: 'تسجيل الخروج',
  login: 'تسجيل الدخول',
  logout_confirm: 'هل أنت متأكد أنك تريد تسجيل الخروج؟',
  settings: 'إعدادات الصفحة',
  collapse: 'طي القائمة',
  expand: 'توسيع القائمة',
  language: 'اللغة',
  loading: 'جارٍ التحميل…',
  tab_actions: 'إجراءات علامات التبويب',
  close_current: 'إغلاق علامة التبويب الحالية',
  close_right: 'إغلاق علامات التبويب على اليمين',
  close_left: 'إغلاق علامات التبويب على اليسار',
  close_all: 'إغلاق جميع علامات التبويب',
  last_tab: 'هذه آخر علامة تبويب ولا يمكن إغلاقها',
  no_left: 'لا توجد علامة تبويب على اليسار',
  no_right: 'لا توجد علامة تبويب على اليمين',
  close_tab: 'إغلاق علامة التبويب',
};
