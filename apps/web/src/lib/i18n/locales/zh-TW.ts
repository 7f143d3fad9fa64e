/** Phrases of one locale: a chunk of its own, loaded when the language is chosen. */
export { zhTW as default } from '@umbo/contracts/phrases/zh-TW/index';
