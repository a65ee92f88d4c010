import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CONFIGURATION_DEFAULTS,
  filterWorkspaceSymbols,
  isCleanExit,
  isMarkdownUri,
  isRequestRefused,
  jsonStringStart,
  escapeSnippet,
  sortFirst,
  widenToJsonString,
} from '../src/builtins';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));

test('package.json sets the built-in settings that builtins.ts documents', () => {
  assert.deepEqual(manifest.contributes.configurationDefaults, CONFIGURATION_DEFAULTS);
});

test('gddls.path applies from user settings in remote windows and is restricted in untrusted workspaces', () => {
  const p = manifest.contributes.configuration.properties['gddls.path'];
  assert.equal(p.scope, 'window');
  assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ['gddls.path']);
});

test('workspace symbols in Markdown files are left to the built-in Markdown extension', () => {
  const sym = (uri: string) => ({ name: uri, location: { uri: { toString: () => uri } } });
  const got = filterWorkspaceSymbols([
    sym('file:///p/02-mechanics.md'),
    sym('file:///p/tuning.json'),
    sym('file:///p/NOTES.MARKDOWN'),
    sym('file:///p/contracts/a.json'),
  ]);
  assert.deepEqual(got?.map((s) => s.name), ['file:///p/tuning.json', 'file:///p/contracts/a.json']);
  assert.equal(filterWorkspaceSymbols(null), null);
  assert.equal(isMarkdownUri('file:///p/a.md?x=1'), true);
  assert.equal(isMarkdownUri('file:///p/md.json'), false);
});

test('sortFirst puts a prefix before every sort text once, keeping the order', () => {
  const items = sortFirst([
    { label: 'b', sortText: '002' },
    { label: { label: 'a' } },
    { label: 'c', sortText: '001' },
  ]);
  assert.deepEqual(items.map((i) => i.sortText), [' 002', ' a', ' 001']);
  assert.ok(' 001' < '"02-mechanics.md#x"', 'sorts before a built-in JSON item');
  sortFirst(items);
  assert.deepEqual(items.map((i) => i.sortText), [' 002', ' a', ' 001']);
});

test('isRequestRefused and isCleanExit', () => {
  assert.equal(isRequestRefused({ code: -32803, message: 'promised' }), true);
  assert.equal(isRequestRefused({ code: -32603, message: 'internal' }), false);
  assert.equal(isRequestRefused(new Error('x')), false);
  assert.equal(isCleanExit('Server process exited with code 0.'), true);
  assert.equal(isCleanExit('Server process exited with code 1.'), false);
  assert.equal(isCleanExit('Server process exited with signal SIGKILL.'), false);
});

test('jsonStringStart and widenToJsonString find the opening quote of the string an edit starts in', () => {
  const line = '    "state-declared-in": "02-mechanics.md#cr",';
  const hash = line.indexOf('#') + 1;
  assert.equal(jsonStringStart(line, hash), line.indexOf('"02-'));
  assert.deepEqual(widenToJsonString(line, hash), { start: line.indexOf('"02-'), prefix: '"02-mechanics.md#' });
  assert.deepEqual(widenToJsonString(line, line.indexOf('"02-') + 1), { start: line.indexOf('"02-'), prefix: '"' });
  assert.equal(widenToJsonString(line, line.indexOf('"02-')), undefined, 'at the quote itself: outside the string');
  assert.equal(widenToJsonString(line, line.indexOf(':')), undefined, 'between strings');
  const escaped = '"a\\"b": "x\\"y';
  assert.equal(jsonStringStart(escaped, escaped.length), escaped.indexOf('"x'));
  assert.equal(escapeSnippet('"a$b}c\\'), '"a\\$b\\}c\\\\');
});
