import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProtocolLocation, ProtocolPosition, showReferencesArgs } from '../src/references';

const converter = {
  asUri: (u: string) => `U(${u})`,
  asPosition: (p: ProtocolPosition) => `P(${p.line}:${p.character})`,
  asLocation: (l: ProtocolLocation) => `L(${l.uri}@${l.range.start.line})`,
};

const loc = (uri: string, line: number): ProtocolLocation => ({
  uri,
  range: { start: { line, character: 2 }, end: { line, character: 9 } },
});

test('showReferencesArgs converts the lens arguments for editor.action.showReferences', () => {
  // The arguments of a reference-count lens, as the server sends them.
  const args = ['file:///p/02-mechanics.md', { line: 12, character: 0 }, [loc('file:///p/contracts/a.json', 3), loc('file:///p/01-overview.md', 7)]];
  assert.deepEqual(showReferencesArgs(args, converter), [
    'U(file:///p/02-mechanics.md)',
    'P(12:0)',
    ['L(file:///p/contracts/a.json@3)', 'L(file:///p/01-overview.md@7)'],
  ]);
  assert.deepEqual(showReferencesArgs(['file:///x.md', { line: 0, character: 0 }, []], converter), ['U(file:///x.md)', 'P(0:0)', []]);
});

test('showReferencesArgs refuses arguments of another shape', () => {
  const bad: unknown[][] = [
    [],
    ['file:///x.md'],
    ['file:///x.md', { line: 0, character: 0 }],
    [1, { line: 0, character: 0 }, []],
    ['file:///x.md', { line: 'a', character: 0 }, []],
    ['file:///x.md', { line: 0, character: 0 }, [{ uri: 'file:///y.md' }]],
    ['file:///x.md', { line: 0, character: 0 }, 'nope'],
  ];
  for (const args of bad) {
    assert.equal(typeof showReferencesArgs(args, converter), 'string', JSON.stringify(args));
  }
});
