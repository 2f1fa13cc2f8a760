import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { resolveSettings, validateSettings, type ProfSettings } from '../../../src/core/profSettings';
import { MAX_NOTIFICATION_CHARS, plainNotificationText } from '../../../src/vscode/notificationText';

const ROOT = join(__dirname, '../../..');

/** How VS Code finds links in a notification's message (vs/base/common/linkedText.ts, VS Code 1.100). */
const VS_CODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

const HOSTILE = '[Click to fix](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%22%7D)';

/** The warning PROF Lens shows for invalid settings, as settings.ts builds it. */
function settingsWarning(partial: Partial<ProfSettings>): string {
  return plainNotificationText(`PROF Lens settings: ${validateSettings(resolveSettings(partial)).join('; ')}`);
}

describe('notification text never carries a link from a setting value or file text', () => {
  it('a hostile setting value is shown, quoted, but is not a link', () => {
    for (const partial of [
      { variant: HOSTILE as ProfSettings['variant'] },
      { split: HOSTILE },
      { split: `regex:(${HOSTILE}` },
      { falsePositiveRules: [HOSTILE as ProfSettings['falsePositiveRules'][number]] },
    ]) {
      const message = settingsWarning(partial);
      expect(message).toContain('Click to fix');
      expect(message.match(VS_CODE_LINK), message).toBeNull();
    }
    expect(settingsWarning({ variant: HOSTILE as ProfSettings['variant'] })).toContain('got "[Click to fix] (command:');
  });

  it('links of every kind VS Code renders are broken, wherever they come from', () => {
    const text = `model error: [a](https://evil.example) [b](file:///etc/passwd) [c](command:x "title") [d] (command:y) ${HOSTILE}`;
    expect(plainNotificationText(text).match(VS_CODE_LINK)).toBeNull();
    // What the raw text would have shown: four clickable links.
    expect(text.match(VS_CODE_LINK)).toHaveLength(4);
  });

  it('line breaks, control characters and bidirectional overrides are removed; long text is cut', () => {
    expect(plainNotificationText('a\r\nb\nc\rd\u2028e')).toBe('a b c d e');
    expect(plainNotificationText('safe\u202Etxt.exe\u0007')).toBe('safetxt.exe');
    const long = plainNotificationText('x'.repeat(5_000));
    expect(long).toHaveLength(MAX_NOTIFICATION_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });

  it('no code shows a notification except through notify.ts', () => {
    const files = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
    });
    const direct = files(join(ROOT, 'src'))
      .filter((f) => !f.endsWith(join('vscode', 'notify.ts')))
      .filter((f) => /\bshow(?:Information|Warning|Error)Message\b/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(direct).toEqual([]);
  });
});
