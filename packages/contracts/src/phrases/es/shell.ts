import type { Phrases } from '../types.js';

export const shell: Phrases['shell'] = {
  site_title: 'Consola de gestión de usuarios',
  personal_center: 'Centro personal',
  logout: 'Cerrar sesión',
  login: 'Iniciar sesión',
  logout_confirm: '¿Seguro que desea cerrar la sesión?',
  settings: 'Configuración de la página',
  collapse: 'Contraer menú',
  expand: 'Expandir menú',
  language: 'Idioma',
  loading: 'Cargando…',
  tab_actions: 'Acciones de pestañas',
  close_current: 'Cerrar la pestaña actual',
  close_right: 'Cerrar pestañas a la derecha',
  close_left: 'Cerrar pestañas a la izquierda',
  close_all: 'Cerrar todas las pestañas',
  last_tab: 'Esta es la última pestaña y no se puede cerrar',
  no_left: 'No hay ninguna pestaña a la izquierda',
  no_right: 'No hay ninguna pestaña a la derecha',
  close_tab: 'Cerrar pestaña',
};
