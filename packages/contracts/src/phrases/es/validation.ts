import type { Phrases } from '../types.js';

export const validation: Phrases['validation'] = {
  required: 'Este campo es obligatorio',
  mobile: 'Introduzca un número de móvil válido',
  email: 'Introduzca una dirección de correo electrónico válida',
  username: 'Nombre de usuario: 3-24 letras, dígitos o guiones bajos',
  username_same: 'El nuevo nombre de usuario debe ser distinto del actual',
  password_min: 'La contraseña debe tener al menos 6 caracteres',
  password_max: 'La contraseña es demasiado larga',
  password_mismatch: 'Las contraseñas introducidas no coinciden',
  mail_code: 'El código consta de 24 letras o dígitos',
  description: 'Descripción: 4-50 caracteres',
  domain: 'Introduzca un nombre de dominio válido',
  url: 'Introduzca una URL http o https válida',
  sub_name: 'Empieza por una letra, seguida de letras, dígitos, guion bajo o punto; 3-50 caracteres',
  key_name: 'Nombre de la clave: 4-20 letras, dígitos, guiones bajos o guiones',
  otp: 'La contraseña de un solo uso tiene 6 dígitos',
  color: 'Introduzca un color, por ejemplo #1890ff',
  too_short: 'Al menos {{min}} caracteres',
  too_long: 'Como máximo {{max}} caracteres',
  invalid: 'Introduzca un valor válido',
};
