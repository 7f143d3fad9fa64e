import type { Phrases } from '../types.js';

export const shell: Phrases['shell'] = {
  site_title: 'Console de gestion des utilisateurs',
  personal_center: 'Espace personnel',
  logout: 'Se déconnecter',
  login: 'Se connecter',
  logout_confirm: 'Voulez-vous vraiment vous déconnecter ?',
  settings: 'Paramètres de la page',
  collapse: 'Réduire le menu',
  expand: 'Déplier le menu',
  language: 'Langue',
  loading: 'Chargement…',
  tab_actions: 'Actions sur les onglets',
  close_current: "Fermer l'onglet actuel",
  close_right: 'Fermer les onglets à droite',
  close_left: 'Fermer les onglets à gauche',
  close_all: 'Fermer tous les onglets',
  last_tab: "C'est le dernier onglet, il ne peut pas être fermé",
  no_left: "Il n'y a pas d'onglet à gauche",
  no_right: "Il n'y a pas d'onglet à droite",
  close_tab: 'Fermer l’onglet',
};
