/**
 * The only way PROF Lens shows a notification (or a notification with progress): every message goes through
 * `plainNotificationText`, so no setting value, model message or file text can become a link
 * (a unit test checks that nothing else calls `window.show…Message`).
 */
import * as vscode from 'vscode';
import { plainNotificationText } from './notificationText';

/** An information message with optional action buttons (their labels are ours, not data). */
export function showInfo<T extends string>(text: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showInformationMessage(plainNotificationText(text), ...actions);
}

/** A warning with optional action buttons. */
export function showWarning<T extends string>(text: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showWarningMessage(plainNotificationText(text), ...actions);
}

/** An error with optional action buttons. */
export function showError<T extends string>(text: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showErrorMessage(plainNotificationText(text), ...actions);
}

/** A modal question; the detail's paragraphs (separated by blank lines) are kept, each made plain. */
export function askModal<T extends string>(text: string, detail: string, ...actions: T[]): Thenable<T | undefined> {
  const paragraphs = detail.split(/\n\n/).map(plainNotificationText).join('\n\n');
  return vscode.window.showWarningMessage(plainNotificationText(text), { modal: true, detail: paragraphs }, ...actions);
}

/**
 * A notification with progress: its title and every progress message are made plain too (VS Code
 * renders links in both, and a file name such as `[Run](command:…).jsonl` goes into titles).
 */
export function withNotificationProgress<R>(
  options: { title: string; cancellable?: boolean },
  task: (progress: { report(message: string): void }, token: vscode.CancellationToken) => Thenable<R>,
): Thenable<R> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: plainNotificationText(options.title), cancellable: options.cancellable === true },
    (progress, token) => task({ report: (message) => progress.report({ message: plainNotificationText(message) }) }, token),
  );
}
