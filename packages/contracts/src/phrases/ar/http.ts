import type { Phrases } from '../types.js';

export const http: Phrases['http'] = {
  forbidden: 'ممنوع',
  unauthorized: 'غير مصرّح',
  unauthorized_desc: 'فشل التحقق من التفويض',
  request_failed: 'فشل الطلب',
  server_error: 'خطأ في الخادم ({{status}})',
  no_response: 'الخادم لا يستجيب، يرجى المحاولة لاحقًا',
  timeout: 'انتهت مهلة جلب البيانات',
  roles_missing: 'getInfo: يجب أن تكون roles مصفوفة غير فارغة!',
  request_timeout: 'انتهت مهلة الطلب',
  permission_insufficient: 'الصلاحية غير معرّفة أو غير كافية',
};
