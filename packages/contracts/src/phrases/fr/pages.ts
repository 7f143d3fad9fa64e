import type { Phrases } from '../types.js';

export const pages: Phrases['pages'] = {
  not_available_title: 'Pas encore disponible',
  not_available: "Cet écran arrive dans une prochaine version. Rien n'est affiché ici tant qu'il ne fonctionne pas réellement.",
  back_home: "Retour à l'accueil",
  exception_403: "Désolé, vous n'avez pas accès à cette page.",
  exception_404: "Désolé, la page demandée n'existe pas.",
  exception_500: 'Désolé, le serveur a signalé une erreur.',
  chunk_error_title: "Cette page n'a pas pu être chargée",
  chunk_error: 'Le réseau est peut-être lent, ou la console a été mise à jour entre-temps.',
  retry: 'Réessayer',
  account_name: 'Nom du compte',
  account_id: 'Identifiant du compte',
  realm: 'Domaine',
  roles: 'Rôles attribués',
  permissions: 'Droits',
};
