/**
 * Text for notifications, made safe to show. VS Code renders `[label](command:…)`, `(https://…)`
 * and `(file:…)` links in notification messages as clickable, even in Restricted Mode, so a setting
 * value from a workspace's `.vscode/settings.json`, a model's error message or file text pasted
 * into a message could offer the user a command to run. Pure (no `vscode` import).
 */

/** Longest message shown; the rest is cut (the full story is in the output channel or status bar). */
export const MAX_NOTIFICATION_CHARS = 600;

/**
 * `text` as a notification shows it as plain text: no link syntax (`](` gets a space, which VS
 * Code's link pattern does not allow), no line breaks or control characters, no bidirectional
 * overrides that could reorder what is read, at most MAX_NOTIFICATION_CHARS characters.
 */
export function plainNotificationText(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ').replace(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '');
  const unlinked = flat.replace(/\]\s*\(/g, '] (');
  return unlinked.length > MAX_NOTIFICATION_CHARS ? `${unlinked.slice(0, MAX_NOTIFICATION_CHARS - 1)}…` : unlinked;
}
