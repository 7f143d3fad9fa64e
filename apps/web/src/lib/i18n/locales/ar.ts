/** Phrases of one locale: a chunk of its own, loaded when the language is chosen. */
export { ar as default } from '@umbo/contracts/phrases/ar/index';
