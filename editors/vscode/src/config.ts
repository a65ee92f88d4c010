// Settings, initialization options and the document selector. This module
// does not import vscode so that it can be unit-tested with plain Node.

/** The default of `gddls.diagnosticsDelay`, in milliseconds. */
export const DEFAULT_DIAGNOSTICS_DELAY = 50;

/** The configuration section the extension owns. */
export const SECTION = 'gddls';

/** The subset of `vscode.WorkspaceConfiguration` this module reads. */
export interface ConfigReader {
  get<T>(section: string): T | undefined;
}

/** The settings the server understands. */
export interface ServerSettings {
  gddls: { diagnosticsDelay: number };
}

/**
 * Reads the server's settings from the `gddls` configuration section. A
 * delay that is not a finite, non-negative number falls back to the default;
 * fractions are rounded to whole milliseconds.
 */
export function serverSettings(config: ConfigReader): ServerSettings {
  const raw = config.get<unknown>('diagnosticsDelay');
  let delay = DEFAULT_DIAGNOSTICS_DELAY;
  if (typeof raw === 'number' && Number.isFinite(raw) && raw >= 0) {
    delay = Math.round(raw);
  }
  return { gddls: { diagnosticsDelay: delay } };
}

/** The `initializationOptions` sent to the server. */
export function initializationOptions(config: ConfigReader): ServerSettings {
  return serverSettings(config);
}

/** The params of `workspace/didChangeConfiguration`. */
export function didChangeConfigurationParams(config: ConfigReader): { settings: ServerSettings } {
  return { settings: serverSettings(config) };
}

/** A document filter, structurally the same as vscode's DocumentFilter. */
export interface DocumentFilter {
  scheme: string;
  language: string;
  pattern?: string;
}

/** The package JSON files at a package root that the server reads. */
export const PACKAGE_JSON_FILES = [
  'tuning.json',
  'manifest.json',
  'clocks.json',
  'direction.json',
  'personalization.json',
] as const;

/** The documents the client sends to the server. */
export function documentSelector(): DocumentFilter[] {
  return [
    { scheme: 'file', language: 'json', pattern: '**/contracts/*.json' },
    ...PACKAGE_JSON_FILES.map((name) => ({ scheme: 'file', language: 'json', pattern: `**/${name}` })),
    { scheme: 'file', language: 'markdown' },
  ];
}

/** Settings whose change needs a server restart rather than a notification. */
export const RESTART_SETTINGS = ['gddls.path'];

/** Settings whose change is sent to the running server. */
export const NOTIFY_SETTINGS = ['gddls.diagnosticsDelay'];

/**
 * Commands the extension registers itself. The server's executeCommand
 * capability also lists `gddls.renderTests`; the client must not register a
 * second VS Code command with that id, or registration fails.
 */
export const CLIENT_COMMANDS = ['gddls.restartServer', 'gddls.renderTests', 'gddls.showOutput'] as const;

/** Removes the commands the extension owns from a server command list. */
export function serverOnlyCommands(commands: readonly string[] | undefined): string[] {
  const owned = new Set<string>(CLIENT_COMMANDS);
  return (commands ?? []).filter((c) => !owned.has(c));
}
