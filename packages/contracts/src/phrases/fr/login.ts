import type { Phrases } from '../types.js';

export const login: Phrases['login'] = {
  subtitle: "Gestion des identités et des comptes du cloud de l'IoT et de la robotique",
  tab_password: 'Compte et mot de passe',
  username: "Nom d'utilisateur",
  password: 'Mot de passe',
  captcha: 'Code de vérification',
  captcha_image: 'Image de vérification ; cliquez pour en obtenir une autre',
  captcha_needed: "Pour votre sécurité, saisissez les caractères affichés dans l'image, puis réessayez.",
  submit: 'Se connecter',
  register: 'Créer un compte',
  forgot: 'Mot de passe oublié ?',
  sso_unavailable: "La connexion à une autre application n'est pas encore disponible ; après la connexion, vous restez dans la console.",
  signed_in: 'Connexion réussie',
  failed: 'Échec de la connexion',
  captcha_expired: 'L’image a expiré ; en voici une nouvelle.',
  otp_prompt: 'Saisissez le mot de passe à usage unique de votre application d’authentification pour {{username}}. Un code de récupération convient aussi.',
  otp_other_account: 'Utiliser un autre compte',
  upstream_button: 'Se connecter avec {{name}}',
  upstream_or: 'ou',
  upstream_signing_in: 'Connexion en cours…',
};
