/** Phrases of one locale: a chunk of its own, loaded when the language is chosen. */
export { es as default } from '@umbo/contracts/phrases/es/index';
