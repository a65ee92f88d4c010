// Which provider serves a feature when VS Code's built-in JSON and Markdown
// extensions offer it too. This module does not import vscode so that it can
// be unit-tested with plain Node; extension.ts wires it into the language
// client's middleware. None of it knows the OpenGDD format: it looks only at
// document languages and URIs.
//
// - Outline, breadcrumbs, sticky scroll (document symbols): the built-in
//   JSON and Markdown extensions serve; gddls's document symbols are not
//   shown, so the Outline holds one tree. (The built-in providers cannot be
//   switched off, so the only way to one tree is to drop the second.)
// - Go to Symbol in Workspace (Ctrl+T): gddls serves, except in Markdown
//   files, whose headings the built-in Markdown extension already lists.
// - Link completion in Markdown (paths and `#` anchors): gddls serves; the
//   built-in path completion is off through the configuration default
//   `markdown.suggest.paths.enabled: false` (package.json), which a user
//   can set back.
// - Completion in JSON: both answer (the built-in JSON extension proposes
//   values it saw elsewhere in the file). gddls's items sort first: their
//   edits are widened to start at the string's opening quote, as the
//   built-in items' do, so that VS Code scores both alike, and then their
//   sort text puts them first.

/** The settings of built-in extensions that package.json sets by default. */
export const CONFIGURATION_DEFAULTS: Record<string, unknown> = {
  'markdown.suggest.paths.enabled': false,
};

/** Document symbols are left to the built-in Outline providers. */
export function keepDocumentSymbols(): boolean {
  return false;
}

/** Reports whether a URI (a string or anything with a path) names a Markdown file. */
export function isMarkdownUri(uri: string): boolean {
  const path = uri.replace(/[?#].*$/, '').toLowerCase();
  return path.endsWith('.md') || path.endsWith('.markdown');
}

/** A workspace symbol as far as the filter needs it. */
export interface LocatedSymbol {
  location: { uri: { toString(): string } };
}

/** Drops the workspace symbols that lie in Markdown files. */
export function filterWorkspaceSymbols<T extends LocatedSymbol>(symbols: readonly T[] | null | undefined): T[] | null | undefined {
  if (!symbols) {
    return symbols;
  }
  return symbols.filter((s) => !isMarkdownUri(s.location.uri.toString()));
}

/**
 * The prefix put before gddls's sort texts. VS Code compares the sort text
 * (or label) of items from every provider as plain strings once their fuzzy
 * scores tie; the built-in JSON items start with `"`, so a space sorts
 * gddls's items above them while keeping the server's own order among them.
 */
export const SORT_PREFIX = ' ';

/** A completion item as far as sorting needs it. */
export interface SortableItem {
  label: string | { label: string };
  sortText?: string;
}

/** Puts gddls's items before those of other providers, keeping their order. */
export function sortFirst<T extends SortableItem>(items: T[]): T[] {
  for (const item of items) {
    const label = typeof item.label === 'string' ? item.label : item.label.label;
    const key = item.sortText ?? label;
    if (!key.startsWith(SORT_PREFIX)) {
      item.sortText = SORT_PREFIX + key;
    }
  }
  return items;
}

/**
 * The column of the opening quote of the JSON string that column col of
 * line is inside, or undefined when col is not inside a string.
 */
export function jsonStringStart(line: string, col: number): number | undefined {
  let start: number | undefined;
  for (let i = 0; i < col && i < line.length; i++) {
    const c = line[i];
    if (start !== undefined) {
      if (c === '\\') {
        i++;
      } else if (c === '"') {
        start = undefined;
      }
    } else if (c === '"') {
      start = i;
    }
  }
  return start;
}

/** Escapes text for a snippet: `$`, `}` and `\` are special there. */
export function escapeSnippet(text: string): string {
  return text.replace(/[$}\\]/g, (c) => '\\' + c);
}

/**
 * Where a completion edit inside a JSON string should start so that VS Code
 * filters and scores it as it does the built-in JSON extension's items,
 * whose edits cover the whole string from its opening quote: the quote's
 * column and the text between it and the edit, which the widened edit
 * inserts again. Undefined when the edit does not start inside a string.
 */
export function widenToJsonString(line: string, editStart: number): { start: number; prefix: string } | undefined {
  const start = jsonStringStart(line, editStart);
  if (start === undefined || start >= editStart) {
    return undefined;
  }
  return { start, prefix: line.slice(start, editStart) };
}

/** The JSON-RPC error code LSP uses for a request the server understood but could not carry out. */
export const REQUEST_FAILED = -32803;

/**
 * Reports whether an error of workspace/executeCommand is the server's
 * answer that it cannot do this for this document (shown as information, in
 * the server's own words), rather than a failure (shown as an error).
 */
export function isRequestRefused(err: unknown): err is { code: number; message: string } {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { code?: unknown }).code === REQUEST_FAILED &&
    typeof (err as { message?: unknown }).message === 'string'
  );
}

/**
 * Reports whether a message the language client logs as an error is the
 * normal end of a server that was asked to stop: exit status 0.
 */
export function isCleanExit(message: string): boolean {
  return /^Server process exited with code 0\.?$/.test(message.trim());
}
