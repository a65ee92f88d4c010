// Entry point of the gddls VS Code extension.

import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import { INSTALL_COMMAND, bundledPath, findOnPath, resolveBinary } from './binary';
import { escapeSnippet, filterWorkspaceSymbols, isCleanExit, keepDocumentSymbols, sortFirst, widenToJsonString } from './builtins';
import {
  NOTIFY_SETTINGS,
  RESTART_SETTINGS,
  SECTION,
  SHOW_REFERENCES_COMMAND,
  didChangeConfigurationParams,
  documentSelector,
  initializationOptions,
  serverOnlyCommands,
} from './config';
import { ExecResult, goInstall } from './install';
import { MissingBinaryNotifier } from './notify';
import { showReferencesArgs } from './references';
import { RENDER_TESTS_COMMAND, TESTS_SCHEME, TestsContentProvider, renderTests } from './tests';

function isExecutable(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) {
      return false;
    }
    if (process.platform !== 'win32') {
      fs.accessSync(file, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

/** Runs file with args (no shell) and collects its exit status and output. */
function exec(file: string, args: string[]): Promise<ExecResult> {
  return new Promise((resolve) => {
    cp.execFile(file, args, { windowsHide: true, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') {
        resolve({ code: -1, stdout, stderr: stderr || err.message });
        return;
      }
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

/**
 * Restores the executable bit of the bundled binary if unpacking the .vsix
 * lost it. Errors are ignored: resolution then reports the binary missing.
 */
function ensureExecutable(file: string): void {
  if (process.platform === 'win32') {
    return;
  }
  try {
    if (fs.statSync(file).isFile() && !isExecutable(file)) {
      fs.chmodSync(file, 0o755);
    }
  } catch {
    // Not bundled for this platform.
  }
}

/**
 * In a JSON document, widens a gddls completion edit that starts inside a
 * string to start at the string's opening quote (inserting the skipped
 * text again), so that VS Code filters and scores it as it does the
 * built-in JSON extension's items. See builtins.ts.
 */
function widenJsonItem(document: vscode.TextDocument, item: vscode.CompletionItem): void {
  const range = item.range;
  if (!range) {
    return;
  }
  const replacing = range instanceof vscode.Range ? range : range.replacing;
  const inserting = range instanceof vscode.Range ? range : range.inserting;
  if (!replacing.isSingleLine || replacing.start.line !== inserting.start.line || !replacing.start.isEqual(inserting.start)) {
    return;
  }
  const line = document.lineAt(replacing.start.line).text;
  const widened = widenToJsonString(line, replacing.start.character);
  if (!widened) {
    return;
  }
  const label = typeof item.label === 'string' ? item.label : item.label.label;
  const text = item.insertText ?? label;
  item.insertText =
    typeof text === 'string' ? widened.prefix + text : new vscode.SnippetString(escapeSnippet(widened.prefix) + text.value);
  item.filterText = widened.prefix + (item.filterText ?? label);
  const start = replacing.start.with({ character: widened.start });
  item.range =
    range instanceof vscode.Range
      ? new vscode.Range(start, range.end)
      : { inserting: new vscode.Range(start, range.inserting.end), replacing: new vscode.Range(start, range.replacing.end) };
}

/**
 * The language client, with the normal end of a stopped server (exit status
 * 0, which vscode-languageclient logs as an error) logged as information.
 */
class GddlsClient extends LanguageClient {
  override error(message: string, data?: unknown, showNotification: boolean | 'force' = true): void {
    if (isCleanExit(message)) {
      this.info(message.trim(), data, false);
      return;
    }
    super.error(message, data, showNotification);
  }
}

/**
 * An output channel that ignores writes once disposed. The server process
 * can report its exit after deactivate, when VS Code has disposed the
 * channel; writing then would throw "Channel has been closed".
 */
function closable(channel: vscode.OutputChannel): { channel: vscode.OutputChannel; close(): void } {
  let closed = false;
  const proxy = new Proxy(channel, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') {
        return value;
      }
      return (...args: unknown[]) => {
        if (closed) {
          return undefined;
        }
        try {
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch {
          return undefined;
        }
      };
    },
  });
  return {
    channel: proxy,
    close() {
      if (!closed) {
        closed = true;
        channel.dispose();
      }
    },
  };
}

/** Owns the language client across restarts. */
class Extension implements vscode.Disposable {
  private client: LanguageClient | undefined;
  // One channel for the server's log and, when gddls.trace.server is on,
  // the protocol trace: no second channel exists while tracing is off.
  private readonly log = closable(vscode.window.createOutputChannel('gddls'));
  private readonly output = this.log.channel;
  private readonly notifier = new MissingBinaryNotifier(vscode.window, vscode.commands, {
    openUrl: (url) => vscode.env.openExternal(vscode.Uri.parse(url)),
    installWithGo: () => this.installWithGo(),
  });
  // The binary Install with Go wrote, when go put it somewhere resolveBinary
  // does not look (a GOBIN set with go env -w, say).
  private installed: string | undefined;
  readonly provider = new TestsContentProvider();

  constructor(private readonly context: vscode.ExtensionContext) {}

  async start(): Promise<void> {
    if (this.client) {
      return;
    }
    const config = vscode.workspace.getConfiguration(SECTION);
    ensureExecutable(bundledPath(this.context.extensionPath, process.platform, process.arch));
    const resolution = resolveBinary({
      configuredPath: config.get<string>('path') ?? '',
      extensionPath: this.context.extensionPath,
      platform: process.platform,
      arch: process.arch,
      env: process.env,
      isExecutable,
      installed: this.installed,
    });
    if (!resolution.found) {
      this.output.appendLine(resolution.message);
      this.output.appendLine(`Looked in: ${resolution.tried.join(', ')}`);
      const goAvailable = findOnPath('go', process.platform, process.env, isExecutable) !== undefined;
      void this.notifier.notify(resolution.message, { configured: (config.get<string>('path') ?? '').trim() !== '', goAvailable });
      return;
    }
    this.output.appendLine(`Starting ${resolution.command} serve (${resolution.source})`);
    const run = { command: resolution.command, args: ['serve'], transport: TransportKind.stdio };
    const serverOptions: ServerOptions = { run, debug: run };
    const clientOptions: LanguageClientOptions = {
      documentSelector: documentSelector(),
      initializationOptions: initializationOptions(config),
      outputChannel: this.output,
      traceOutputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      // Features VS Code's built-in JSON and Markdown extensions offer too;
      // see builtins.ts for which provider serves each.
      middleware: {
        provideDocumentSymbols: (document, token, next) => (keepDocumentSymbols() ? next(document, token) : []),
        provideWorkspaceSymbols: async (query, token, next) => filterWorkspaceSymbols(await next(query, token)),
        provideCompletionItem: async (document, position, context, token, next) => {
          const result = await next(document, position, context, token);
          const items = Array.isArray(result) ? result : result?.items;
          if (items) {
            if (document.languageId === 'json' || document.languageId === 'jsonc') {
              items.forEach((item) => widenJsonItem(document, item));
            }
            sortFirst(items);
          }
          return result;
        },
      },
    };
    const client = new GddlsClient('gddls', 'gddls', serverOptions, clientOptions);
    // The server lists gddls.renderTests in its executeCommand capability.
    // The extension registers that command itself, so keep the client from
    // registering a duplicate (which would fail the whole start).
    const feature = client.getFeature(ExecuteCommandRequest.method) as unknown as {
      register(data: { id: string; registerOptions: { commands?: string[] } }): void;
    };
    const register = feature.register.bind(feature);
    feature.register = (data) =>
      register({ ...data, registerOptions: { ...data.registerOptions, commands: serverOnlyCommands(data.registerOptions.commands) } });
    this.client = client;
    try {
      await client.start();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.output.appendLine(`The server failed to start: ${reason}`);
      void vscode.window
        .showErrorMessage(`gddls: the language server failed to start: ${reason}`, 'Show Output')
        .then((choice) => choice && this.output.show(true));
      this.client = undefined;
      await client.dispose().catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop();
      } catch (err) {
        this.output.appendLine(`Stopping the server: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  async restart(): Promise<void> {
    this.notifier.reset();
    await this.stop();
    await this.start();
  }

  /**
   * The Install with Go button: runs go install with a progress
   * notification, logs its output, and starts the server it installed.
   */
  async installWithGo(): Promise<void> {
    const go = findOnPath('go', process.platform, process.env, isExecutable);
    if (!go) {
      void vscode.window.showErrorMessage('gddls: the go command is no longer on PATH.');
      return;
    }
    this.output.appendLine(`Running ${INSTALL_COMMAND}`);
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `gddls: ${INSTALL_COMMAND}` },
      () =>
        goInstall(go, process.platform, async (file, args) => {
          const r = await exec(file, args);
          if (r.stderr.trim() !== '') {
            this.output.append(r.stderr.endsWith('\n') ? r.stderr : r.stderr + '\n');
          }
          return r;
        }),
    );
    if (!result.ok) {
      this.output.appendLine(result.message);
      void vscode.window.showErrorMessage(result.message, 'Show Output').then((choice) => choice && this.output.show(true));
      return;
    }
    this.installed = result.binary;
    this.output.appendLine(`Installed ${result.binary}`);
    await this.restart();
    if (this.client) {
      void vscode.window.showInformationMessage(`gddls: installed the server at ${result.binary} and started it.`);
    }
  }

  async onConfigurationChanged(e: vscode.ConfigurationChangeEvent): Promise<void> {
    if (RESTART_SETTINGS.some((s) => e.affectsConfiguration(s))) {
      await this.restart();
      return;
    }
    if (this.client?.isRunning() && NOTIFY_SETTINGS.some((s) => e.affectsConfiguration(s))) {
      const params = didChangeConfigurationParams(vscode.workspace.getConfiguration(SECTION));
      await this.client.sendNotification(DidChangeConfigurationNotification.type, params);
    }
  }

  /**
   * gddls.showReferences, the command of the reference-count code lenses:
   * opens VS Code's references peek at the lens with the locations the
   * server put into the lens.
   */
  async showReferences(args: unknown[]): Promise<void> {
    const client = this.client;
    if (!client) {
      void vscode.window.showErrorMessage('gddls: the language server is not running.');
      return;
    }
    const converted = showReferencesArgs(args, client.protocol2CodeConverter);
    if (typeof converted === 'string') {
      this.output.appendLine(`${converted}; got ${JSON.stringify(args)}`);
      void vscode.window.showErrorMessage(`gddls: ${converted}.`);
      return;
    }
    await vscode.commands.executeCommand('editor.action.showReferences', ...converted);
  }

  /**
   * gddls.renderTests, from the command palette (the active editor's
   * adoption) or from a code lens (the adoption's URI as the argument).
   */
  async renderTests(target?: unknown): Promise<void> {
    const client = this.client?.isRunning() ? this.client : undefined;
    let active = vscode.window.activeTextEditor?.document.uri;
    if (typeof target === 'string') {
      active = vscode.Uri.parse(target);
    } else if (target instanceof vscode.Uri) {
      active = target;
    }
    await renderTests({
      active,
      execute: client
        ? (uri) => client.sendRequest(ExecuteCommandRequest.type, { command: RENDER_TESTS_COMMAND, arguments: [uri] })
        : undefined,
      provider: this.provider,
      open: async (uri) => {
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
        await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
      },
      showError: (message) => void vscode.window.showErrorMessage(message),
      showInfo: (message) => void vscode.window.showInformationMessage(message),
    });
  }

  showOutput(): void {
    this.output.show(true);
  }

  dispose(): void {
    this.provider.dispose();
    this.log.close();
  }
}

let extension: Extension | undefined;

/** Called by VS Code on the first activation event. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const ext = new Extension(context);
  extension = ext;
  context.subscriptions.push(
    ext,
    vscode.workspace.registerTextDocumentContentProvider(TESTS_SCHEME, ext.provider),
    vscode.commands.registerCommand('gddls.restartServer', () => ext.restart()),
    vscode.commands.registerCommand('gddls.renderTests', (target?: unknown) => ext.renderTests(target)),
    vscode.commands.registerCommand(SHOW_REFERENCES_COMMAND, (...args: unknown[]) => ext.showReferences(args)),
    vscode.commands.registerCommand('gddls.showOutput', () => ext.showOutput()),
    vscode.workspace.onDidChangeConfiguration((e) => ext.onConfigurationChanged(e)),
  );
  await ext.start();
}

/** Called by VS Code on shutdown or when the extension is disabled. */
export async function deactivate(): Promise<void> {
  const ext = extension;
  extension = undefined;
  await ext?.stop();
}
