import type { Phrases } from '../types.js';

export const notify: Phrases['notify'] = {
  activate_subject: 'فعّل حسابك على {{site}}',
  activate_text:
    'مرحبًا {{username}}،\n\nشكرًا لتسجيلك. يرجى تأكيد عنوان بريدك الإلكتروني بفتح هذا الرابط خلال {{hours}} ساعة:\n{{link}}\n\nإذا لم تقم بالتسجيل، فتجاهل هذه الرسالة.',
  activate_button: 'تفعيل الحساب',
  reset_subject: 'إعادة تعيين كلمة المرور على {{site}}',
  reset_text:
    'مرحبًا {{username}}،\n\nطلب أحدهم إعادة تعيين كلمة مرور حسابك. افتح هذا الرابط خلال {{minutes}} دقيقة لاختيار كلمة مرور جديدة:\n{{link}}\n\nأو أدخل هذا الرمز في صفحة إعادة تعيين كلمة المرور: {{code}}\n\nإذا لم تكن أنت، فتجاهل هذه الرسالة؛ تبقى كلمة مرورك دون تغيير.',
  reset_button: 'إعادة تعيين كلمة المرور',
  code_subject: 'رمز التحقق الخاص بك لـ {{site}}',
  code_text: 'رمز التحقق الخاص بك هو {{code}}. وهو صالح لمدة {{minutes}} دقيقة. لا تشاركه مع أي شخص.',
  sms_code: '[{{realm}}] رمز التحقق الخاص بك هو {{code}}، صالح لمدة {{minutes}} دقيقة. لا تشاركه مع أي شخص.',
  footer: 'أُرسلت هذه الرسالة تلقائيًا من {{site}}؛ يرجى عدم الرد عليها.',
  security_subject: 'تنبيه أمني بشأن حسابك في {{site}}',
  security_text: 'مرحبًا {{username}}،\n\n{{event}}\n\n{{advice}}',
  security_advice: 'إذا لم تكن أنت من قام بذلك، فأعد تعيين كلمة المرور الآن وتواصل مع المسؤول.',
  sms_security: '[{{realm}}] تنبيه أمني: {{event}} {{advice}}',
  event_password_changed: 'تم تغيير كلمة مرور حسابك في {{site}} بتاريخ {{time}} من العنوان {{ip}}.',
  event_password_reset: 'تمت إعادة تعيين كلمة مرور حسابك في {{site}} بتاريخ {{time}} من العنوان {{ip}}.',
  event_otp_enabled: 'تم تفعيل كلمات المرور لمرة واحدة لحسابك في {{site}} بتاريخ {{time}} من العنوان {{ip}}.',
  event_otp_disabled: 'تم تعطيل كلمات المرور لمرة واحدة لحسابك في {{site}} بتاريخ {{time}} من العنوان {{ip}}.',
  event_email_bound: 'تمت إضافة بريد إلكتروني إلى حسابك في {{site}} بتاريخ {{time}} من العنوان {{ip}}.',
  event_email_changed: 'تم تغيير البريد الإلكتروني لحسابك في {{site}} بتاريخ {{time}} من العنوان {{ip}}.',
  event_email_unbound: 'تمت إزالة البريد الإلكتروني من حسابك في {{site}} بتاريخ {{time}} من العنوان {{ip}}.',
  event_phone_bound: 'تمت إضافة رقم هاتف إلى حسابك في {{site}} بتاريخ {{time}} من العنوان {{ip}}.',
  event_phone_changed: 'تم تغيير رقم الهاتف لحسابك في {{site}} بتاريخ {{time}} من العنوان {{ip}}.',
  event_phone_unbound: 'تمت إزالة رقم الهاتف من حسابك في {{site}} بتاريخ {{time}} من العنوان {{ip}}.',
};
