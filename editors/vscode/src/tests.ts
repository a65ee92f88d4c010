// The gddls.renderTests command: ask the server for the generated tests of
// an adoption and show them as a read-only Markdown document.

import * as vscode from 'vscode';
import { isRequestRefused } from './builtins';

/** The URI scheme of the read-only documents that hold rendered tests. */
export const TESTS_SCHEME = 'gddls-tests';

/** The server command that renders an adoption's tests. */
export const RENDER_TESTS_COMMAND = 'gddls.renderTests';

const ADOPTION_RE = /(?:^|[\\/])contracts[\\/]([^\\/]+)\.json$/;

/**
 * The adoption id of a file path, or undefined when the path is not an
 * adoption file (`contracts/<id>.json`, not a `.pack.json`).
 */
export function adoptionId(fsPath: string): string | undefined {
  const m = ADOPTION_RE.exec(fsPath);
  if (!m || m[1].endsWith('.pack') || m[1].startsWith('.')) {
    return undefined;
  }
  return m[1];
}

/**
 * Holds the text of rendered tests and serves it to VS Code. Documents of
 * a TextDocumentContentProvider are read-only.
 */
export class TestsContentProvider implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly contents = new Map<string, string>();

  /** Fires when a document's text changes, so an open editor refreshes. */
  readonly onDidChange = this.emitter.event;

  /** The virtual document URI for the tests of the adoption at source. */
  uriFor(source: vscode.Uri): vscode.Uri {
    const id = adoptionId(source.path) ?? 'adoption';
    return vscode.Uri.from({ scheme: TESTS_SCHEME, path: `/${id}.tests.md`, query: source.toString() });
  }

  /** Stores text for uri and tells VS Code to refresh it. */
  set(uri: vscode.Uri, text: string): void {
    this.contents.set(uri.toString(), text);
    this.emitter.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.contents.get(uri.toString()) ??
      '<!-- Run "gddls: Render Contract Tests" on an adoption file to fill this document. -->\n'
    );
  }

  dispose(): void {
    this.emitter.dispose();
    this.contents.clear();
  }
}

/** What renderTests needs from the extension; injected for tests. */
export interface RenderDeps {
  /** The document of the active editor, if any. */
  active: vscode.Uri | undefined;
  /** Sends `workspace/executeCommand` with the adoption URI; undefined when the server is not running. */
  execute: ((uri: string) => Promise<unknown>) | undefined;
  provider: TestsContentProvider;
  /** Opens a document in an editor. */
  open: (uri: vscode.Uri) => Promise<void>;
  showError: (message: string) => void;
  /** Shows a message that is not an error (the server's reason why an adoption has no tests). */
  showInfo: (message: string) => void;
}

/**
 * Renders the tests of the active adoption and opens them. It returns the
 * virtual URI it opened, or undefined after showing why it could not.
 */
export async function renderTests(deps: RenderDeps): Promise<vscode.Uri | undefined> {
  const source = deps.active;
  if (!source || source.scheme !== 'file' || adoptionId(source.path) === undefined) {
    deps.showError('gddls: open an adoption file (contracts/<adoption>.json) to render its tests.');
    return undefined;
  }
  if (!deps.execute) {
    deps.showError('gddls: the language server is not running. Run "gddls: Restart Language Server" or "gddls: Show Output".');
    return undefined;
  }
  let result: unknown;
  try {
    result = await deps.execute(source.toString());
  } catch (err) {
    if (isRequestRefused(err)) {
      // The server understood the request and says why this adoption has
      // no tests (a promised adoption has no pack): not a failure.
      deps.showInfo(`gddls: ${err.message}`);
      return undefined;
    }
    const reason = err instanceof Error ? err.message : String(err);
    deps.showError(`gddls: rendering the tests failed: ${reason}`);
    return undefined;
  }
  if (typeof result !== 'string') {
    deps.showError('gddls: the server returned no Markdown text for the tests of this adoption.');
    return undefined;
  }
  const target = deps.provider.uriFor(source);
  deps.provider.set(target, result);
  await deps.open(target);
  return target;
}
