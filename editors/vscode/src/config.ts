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

/** The kinds of inlay hints, each a boolean setting `gddls.inlayHints.<kind>`. */
export const INLAY_HINT_KINDS = ['tuningValues', 'headings', 'notAsked', 'contractValues'] as const;

export type InlayHintKind = (typeof INLAY_HINT_KINDS)[number];

/** The settings the server understands. */
export interface ServerSettings {
  gddls: {
    diagnosticsDelay: number;
    inlayHints: Record<InlayHintKind, boolean>;
    /** The safety scan's notices, as Information diagnostics. */
    safety: boolean;
    /** The review-mode hints, as Hint diagnostics (off by default). */
    review: boolean;
    /** Initialization only: false keeps push diagnostics. */
    pullDiagnostics?: boolean;
  };
}

/** A boolean setting; anything but a boolean falls back to the default. */
function flag(config: ConfigReader, key: string, fallback: boolean): boolean {
  const raw = config.get<unknown>(key);
  return typeof raw === 'boolean' ? raw : fallback;
}

/**
 * Reads the server's settings from the `gddls` configuration section. A
 * delay that is not a finite, non-negative number falls back to the default;
 * fractions are rounded to whole milliseconds. Each inlay hint kind, and the
 * safety scan, is on unless set to false; review mode is off unless set to
 * true.
 */
export function serverSettings(config: ConfigReader): ServerSettings {
  const raw = config.get<unknown>('diagnosticsDelay');
  let delay = DEFAULT_DIAGNOSTICS_DELAY;
  if (typeof raw === 'number' && Number.isFinite(raw) && raw >= 0) {
    delay = Math.round(raw);
  }
  const inlayHints = {} as Record<InlayHintKind, boolean>;
  for (const kind of INLAY_HINT_KINDS) {
    inlayHints[kind] = flag(config, `inlayHints.${kind}`, true);
  }
  return { gddls: { diagnosticsDelay: delay, inlayHints, safety: flag(config, 'safety', true), review: flag(config, 'review', false) } };
}

/**
 * The `initializationOptions` sent to the server: the settings, and
 * `gddls.pullDiagnostics`, which the server reads only there.
 */
export function initializationOptions(config: ConfigReader): ServerSettings {
  const settings = serverSettings(config);
  settings.gddls.pullDiagnostics = flag(config, 'pullDiagnostics', false);
  return settings;
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

/**
 * The package JSON files that the server reads, besides adoptions and the
 * records and schema files of collections: those at a package root, and
 * build records (`opengdd-build.json`).
 */
export const PACKAGE_JSON_FILES = [
  'tuning.json',
  'manifest.json',
  'clocks.json',
  'direction.json',
  'personalization.json',
  'opengdd-build.json',
] as const;

/** The documents the client sends to the server. */
export function documentSelector(): DocumentFilter[] {
  return [
    { scheme: 'file', language: 'json', pattern: '**/contracts/*.json' },
    { scheme: 'file', language: 'json', pattern: '**/collections/*/*.json' },
    ...PACKAGE_JSON_FILES.map((name) => ({ scheme: 'file', language: 'json', pattern: `**/${name}` })),
    { scheme: 'file', language: 'markdown' },
  ];
}

/**
 * Settings whose change needs a server restart rather than a notification:
 * the binary, and `gddls.pullDiagnostics`, which the server reads only at
 * initialization.
 */
export const RESTART_SETTINGS = ['gddls.path', 'gddls.pullDiagnostics'];

/** Settings whose change is sent to the running server. */
export const NOTIFY_SETTINGS = ['gddls.diagnosticsDelay', 'gddls.inlayHints', 'gddls.safety', 'gddls.review'];

/** The command of the reference-count code lenses, which the client runs. */
export const SHOW_REFERENCES_COMMAND = 'gddls.showReferences';

/**
 * Commands the extension registers itself. The server's executeCommand
 * capability also lists `gddls.renderTests` (and could list any of these);
 * the client must not register a second VS Code command with such an id,
 * or registration fails. Every other server command (`gddls.explain`, the
 * command of a lens that only informs) is registered by the language
 * client, which sends it to the server as `workspace/executeCommand`.
 */
export const CLIENT_COMMANDS = ['gddls.restartServer', 'gddls.renderTests', 'gddls.showOutput', SHOW_REFERENCES_COMMAND] as const;

/** Removes the commands the extension owns from a server command list. */
export function serverOnlyCommands(commands: readonly string[] | undefined): string[] {
  const owned = new Set<string>(CLIENT_COMMANDS);
  return (commands ?? []).filter((c) => !owned.has(c));
}
