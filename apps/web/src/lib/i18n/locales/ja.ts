/** Phrases of one locale: a chunk of its own, loaded when the language is chosen. */
export { ja as default } from '@umbo/contracts/phrases/ja/index';
