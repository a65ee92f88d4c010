// The client command gddls.showReferences: the command of the server's
// reference-count code lenses ("3 references" over a heading or a tuning
// key). The server does not execute it; its arguments are those of VS
// Code's editor.action.showReferences in protocol form (the file URI, the
// lens position, the reference locations), which this module converts and
// forwards, so a click on the lens opens the references peek. This module
// does not import vscode so that it can be unit-tested with plain Node.

/** A protocol position. */
export interface ProtocolPosition {
  line: number;
  character: number;
}

/** A protocol location. */
export interface ProtocolLocation {
  uri: string;
  range: { start: ProtocolPosition; end: ProtocolPosition };
}

/** The parts of the language client's protocol2CodeConverter used here. */
export interface Converter<U, P, L> {
  asUri(value: string): U;
  asPosition(value: ProtocolPosition): P;
  asLocation(value: ProtocolLocation): L;
}

function isPosition(v: unknown): v is ProtocolPosition {
  const p = v as ProtocolPosition;
  return typeof p === 'object' && p !== null && Number.isInteger(p.line) && Number.isInteger(p.character);
}

function isLocation(v: unknown): v is ProtocolLocation {
  const l = v as ProtocolLocation;
  return typeof l === 'object' && l !== null && typeof l.uri === 'string' && typeof l.range === 'object' && l.range !== null &&
    isPosition(l.range.start) && isPosition(l.range.end);
}

/**
 * Converts the arguments of gddls.showReferences to those of
 * editor.action.showReferences, or returns a reason why they are not
 * (uri, position, locations).
 */
export function showReferencesArgs<U, P, L>(args: unknown[], c: Converter<U, P, L>): [U, P, L[]] | string {
  const [uri, position, locations] = args;
  if (typeof uri !== 'string' || !isPosition(position) || !Array.isArray(locations) || !locations.every(isLocation)) {
    return 'gddls.showReferences takes a URI, a position and a list of locations';
  }
  return [c.asUri(uri), c.asPosition(position), locations.map((l) => c.asLocation(l))];
}
