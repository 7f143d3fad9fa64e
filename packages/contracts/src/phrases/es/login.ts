import type { Phrases } from '../types.js';

export const login: Phrases['login'] = {
  subtitle: 'Gestión de identidades y cuentas para la nube de IoT y robótica',
  tab_password: 'Cuenta y contraseña',
  username: 'Nombre de usuario',
  password: 'Contraseña',
  captcha: 'Código de verificación',
  captcha_image: 'Imagen de verificación; haga clic para obtener otra',
  captcha_needed: 'Por su seguridad, introduzca los caracteres que aparecen en la imagen y vuelva a intentarlo.',
  submit: 'Iniciar sesión',
  register: 'Registrar una cuenta',
  forgot: '¿Olvidó su contraseña?',
  sso_unavailable: 'Iniciar sesión en otra aplicación aún no está disponible; tras iniciar sesión permanecerá en la consola.',
  signed_in: 'Sesión iniciada',
  failed: 'Error al iniciar sesión',
  captcha_expired: 'La imagen ha caducado; aquí tiene una nueva.',
  otp_prompt: 'Introduzca la contraseña de un solo uso de su aplicación de autenticación para {{username}}. También sirve un código de recuperación.',
  otp_other_account: 'Usar otra cuenta',
  upstream_button: 'Iniciar sesión con {{name}}',
  upstream_or: 'o',
  upstream_signing_in: 'Iniciando sesión…',
};
