import type { Phrases } from '../types.js';

export const pages: Phrases['pages'] = {
  not_available_title: 'غير متاح بعد',
  not_available: 'ستتوفر هذه الشاشة في إصدار لاحق. لن يُعرض هنا شيء حتى تعمل فعليًا.',
  back_home: 'العودة إلى الرئيسية',
  exception_403: 'عذرًا، لا يُسمح لك بزيارة هذه الصفحة.',
  exception_404: 'عذرًا، الصفحة التي زرتها غير موجودة.',
  exception_500: 'عذرًا، أبلغ الخادم عن خطأ.',
  chunk_error_title: 'تعذّر تحميل هذه الصفحة',
  chunk_error: 'قد تكون الشبكة بطيئة، أو تم تحديث لوحة التحكم في هذه الأثناء.',
  retry: 'إعادة المحاولة',
  account_name: 'اسم الحساب',
  account_id: 'معرّف الحساب',
  realm: 'النطاق',
  roles: 'الأدوار المسندة',
  permissions: 'الصلاحيات',
};
