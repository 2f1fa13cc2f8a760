/**
 * The endpoints' API key in the editor: kept in VS Code's secret storage (the OS keychain), set and
 * cleared by two commands, held in memory for the analysis worker, and never written to a settings
 * file, a log or a message.
 */
import * as vscode from 'vscode';
import { showInfo } from './notify';
import { commandIds } from './commandIds';

/** The secret storage entry. */
export const API_KEY_SECRET = 'profLens.endpointApiKey';

/** The key as secret storage holds it, kept current. */
export class ApiKeyStore implements vscode.Disposable {
  private value: string | undefined;
  private readonly changes = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  /** The key was set or cleared (here or in another window). */
  readonly onDidChange = this.changes.event;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((event) => {
      if (event.key === API_KEY_SECRET) void this.load().then(() => this.changes.fire());
    });
  }

  /** Reads the stored key; call once before the first analysis. */
  async load(): Promise<void> {
    this.value = (await this.secrets.get(API_KEY_SECRET)) || undefined;
  }

  /** The key, or undefined when none is stored. */
  get current(): string | undefined {
    return this.value;
  }

  async set(key: string): Promise<void> {
    this.value = key;
    await this.secrets.store(API_KEY_SECRET, key);
  }

  async clear(): Promise<void> {
    this.value = undefined;
    await this.secrets.delete(API_KEY_SECRET);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
  }
}

async function setKey(store: ApiKeyStore): Promise<void> {
  const key = await vscode.window.showInputBox({
    title: 'PROF Lens: API key for the scoring endpoints',
    prompt: 'Sent as a bearer token to the PRM and critic endpoints. Kept in VS Code\'s secret storage, never in settings.',
    password: true,
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim() === '' ? 'Enter a key, or use "Clear Endpoint API Key" to remove it.' : /\s/.test(text.trim()) ? 'A key has no spaces.' : undefined),
  });
  if (key === undefined) return;
  await store.set(key.trim());
  void showInfo('PROF Lens: the API key is stored in VS Code\'s secret storage.');
}

async function clearKey(store: ApiKeyStore): Promise<void> {
  await store.clear();
  void showInfo('PROF Lens: the API key was removed from VS Code\'s secret storage.');
}

/** The Set and Clear Endpoint API Key commands. */
export function registerApiKeyCommands(store: ApiKeyStore): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(commandIds.setApiKey, () => setKey(store)),
    vscode.commands.registerCommand(commandIds.clearApiKey, () => clearKey(store)),
  ];
}
