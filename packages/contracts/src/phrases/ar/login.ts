import type { Phrases } from '../types.js';

export const login: Phrases['login'] = {
  subtitle: 'إدارة الهويات والحسابات لسحابة إنترنت الأشياء والروبوتات',
  tab_password: 'كلمة المرور',
  username: 'اسم المستخدم',
  password: 'كلمة المرور',
  captcha: 'رمز التحقق',
  captcha_image: 'صورة التحقق؛ انقر للحصول على صورة أخرى',
  captcha_needed: 'حفاظًا على أمانك، أدخل الأحرف الظاهرة في الصورة ثم حاول مرة أخرى.',
  submit: 'تسجيل الدخول',
  register: 'تسجيل حساب',
  forgot: 'هل نسيت كلمة المرور؟',
  sso_unavailable: 'تسجيل الدخول إلى تطبيق آخر غير متاح بعد؛ بعد تسجيل الدخول ستبقى في لوحة التحكم.',
  signed_in: 'تم تسجيل الدخول',
  failed: 'فشل تسجيل الدخول',
  captcha_expired: 'انتهت صلاحية الصورة؛ إليك صورة جديدة.',
  otp_prompt: 'أدخل كلمة المرور لمرة واحدة من تطبيق المصادقة للحساب {{username}}. يصلح رمز الاسترداد أيضًا.',
  otp_other_account: 'استخدام حساب آخر',
  upstream_button: 'تسجيل الدخول باستخدام {{name}}',
  upstream_or: 'أو',
  upstream_signing_in: 'جارٍ تسجيل الدخول…',
};
