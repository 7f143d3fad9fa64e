export * from './errors.js';
export * from './envelope.js';
export * from './locales.js';
export * from './rules.js';
export * from './permissions.js';
export * from './auth.js';
export * from './paths.js';
export * from './project-config.js';
export { phrases, type Phrases } from './phrases/index.js';
