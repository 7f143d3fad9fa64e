import type { Phrases } from '../types.js';

export const shell: Phrases['shell'] = {
  site_title: 'Console de gestão de usuários',
  personal_center: 'Central pessoal',
  logout: 'Sair',
  login: 'Entrar',
  logout_confirm: 'Tem certeza de que deseja sair?',
  settings: 'Configurações da página',
  collapse: 'Recolher menu',
  expand: 'Expandir menu',
  language: 'Idioma',
  loading: 'Carregando…',
  tab_actions: 'Ações das abas',
  close_current: 'Fechar a aba atual',
  close_right: 'Fechar abas à direita',
  close_left: 'Fechar abas à esquerda',
  close_all: 'Fechar todas as abas',
  last_tab: 'Esta é a última aba e não pode ser fechada',
  no_left: 'Não há nenhuma aba à esquerda',
  no_right: 'Não há nenhuma aba à direita',
  close_tab: 'Fechar aba',
};
