import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULT_DIAGNOSTICS_DELAY,
  didChangeConfigurationParams,
  documentSelector,
  initializationOptions,
  serverOnlyCommands,
} from '../src/config';

function reader(values: Record<string, unknown>) {
  return { get: <T>(key: string) => values[key] as T | undefined };
}

test('initializationOptions carries gddls.diagnosticsDelay', async (t) => {
  const cases: { name: string; value: unknown; want: number }[] = [
    { name: 'unset uses default', value: undefined, want: DEFAULT_DIAGNOSTICS_DELAY },
    { name: 'explicit value', value: 250, want: 250 },
    { name: 'zero allowed', value: 0, want: 0 },
    { name: 'fraction rounded', value: 12.6, want: 13 },
    { name: 'negative falls back', value: -5, want: DEFAULT_DIAGNOSTICS_DELAY },
    { name: 'string falls back', value: '100', want: DEFAULT_DIAGNOSTICS_DELAY },
    { name: 'NaN falls back', value: Number.NaN, want: DEFAULT_DIAGNOSTICS_DELAY },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      assert.deepEqual(initializationOptions(reader({ diagnosticsDelay: c.value })), { gddls: { diagnosticsDelay: c.want } });
    });
  }
});

test('didChangeConfiguration wraps the same settings', () => {
  assert.deepEqual(didChangeConfigurationParams(reader({ diagnosticsDelay: 10, path: '/x' })), {
    settings: { gddls: { diagnosticsDelay: 10 } },
  });
});

test('document selector covers adoptions, package JSON files and Markdown', () => {
  const sel = documentSelector();
  assert.deepEqual(sel[0], { scheme: 'file', language: 'json', pattern: '**/contracts/*.json' });
  const patterns = sel.filter((f) => f.language === 'json').map((f) => f.pattern);
  for (const name of ['tuning.json', 'manifest.json', 'clocks.json', 'direction.json', 'personalization.json']) {
    assert.ok(patterns.includes(`**/${name}`), name);
  }
  assert.deepEqual(sel[sel.length - 1], { scheme: 'file', language: 'markdown' });
  assert.ok(sel.every((f) => f.scheme === 'file'));
  assert.ok(!patterns.includes('**/*.json'), 'must not claim every JSON file');
});

test('serverOnlyCommands drops commands the extension registers itself', () => {
  assert.deepEqual(serverOnlyCommands(['gddls.renderTests', 'gddls.other']), ['gddls.other']);
  assert.deepEqual(serverOnlyCommands(undefined), []);
});
