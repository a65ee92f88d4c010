import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CLIENT_COMMANDS,
  DEFAULT_DIAGNOSTICS_DELAY,
  NOTIFY_SETTINGS,
  RESTART_SETTINGS,
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
      assert.deepEqual(initializationOptions(reader({ diagnosticsDelay: c.value })).gddls.diagnosticsDelay, c.want);
    });
  }
});

const ALL_HINTS = { tuningValues: true, headings: true, notAsked: true, contractValues: true };

test('initializationOptions carries the inlay hint kinds and gddls.pullDiagnostics', () => {
  assert.deepEqual(initializationOptions(reader({})), {
    gddls: { diagnosticsDelay: DEFAULT_DIAGNOSTICS_DELAY, inlayHints: ALL_HINTS, safety: true, review: false, pullDiagnostics: false },
  });
  assert.deepEqual(
    initializationOptions(reader({ 'inlayHints.headings': false, 'inlayHints.notAsked': 'no', safety: false, review: true, pullDiagnostics: true })),
    { gddls: { diagnosticsDelay: DEFAULT_DIAGNOSTICS_DELAY, inlayHints: { ...ALL_HINTS, headings: false }, safety: false, review: true, pullDiagnostics: true } },
  );
});

test('didChangeConfiguration sends the delay and the inlay hint kinds, not the initialization-only pullDiagnostics', () => {
  assert.deepEqual(
    didChangeConfigurationParams(reader({ diagnosticsDelay: 10, path: '/x', 'inlayHints.contractValues': false, pullDiagnostics: false })),
    { settings: { gddls: { diagnosticsDelay: 10, inlayHints: { ...ALL_HINTS, contractValues: false }, safety: true, review: false } } },
  );
});

test('a change of gddls.pullDiagnostics restarts the server; inlay hint settings are notified', () => {
  assert.ok(RESTART_SETTINGS.includes('gddls.pullDiagnostics'));
  assert.ok(NOTIFY_SETTINGS.includes('gddls.inlayHints'));
  assert.ok(NOTIFY_SETTINGS.includes('gddls.safety'));
  assert.ok(NOTIFY_SETTINGS.includes('gddls.review'));
  assert.ok(!NOTIFY_SETTINGS.includes('gddls.pullDiagnostics'));
});

test('package.json contributes every setting the server reads, with the defaults config.ts assumes', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require('../package.json');
  const props = pkg.contributes.configuration.properties;
  for (const kind of Object.keys(ALL_HINTS)) {
    assert.deepEqual([props[`gddls.inlayHints.${kind}`]?.type, props[`gddls.inlayHints.${kind}`]?.default], ['boolean', true], kind);
  }
  assert.deepEqual([props['gddls.pullDiagnostics']?.type, props['gddls.pullDiagnostics']?.default], ['boolean', false]);
  assert.deepEqual([props['gddls.review']?.type, props['gddls.review']?.default], ['boolean', false]);
  assert.deepEqual([props['gddls.safety']?.type, props['gddls.safety']?.default], ['boolean', true]);
  assert.equal(props['gddls.diagnosticsDelay']?.default, DEFAULT_DIAGNOSTICS_DELAY);
});

test('document selector covers adoptions, collections, package JSON files, build records and Markdown', () => {
  const sel = documentSelector();
  assert.deepEqual(sel[0], { scheme: 'file', language: 'json', pattern: '**/contracts/*.json' });
  const patterns = sel.filter((f) => f.language === 'json').map((f) => f.pattern);
  assert.ok(patterns.includes('**/collections/*/*.json'), 'collection records and schema files');
  for (const name of ['tuning.json', 'manifest.json', 'clocks.json', 'direction.json', 'personalization.json', 'opengdd-build.json']) {
    assert.ok(patterns.includes(`**/${name}`), name);
  }
  assert.deepEqual(sel[sel.length - 1], { scheme: 'file', language: 'markdown' });
  assert.ok(sel.every((f) => f.scheme === 'file'));
  assert.ok(!patterns.includes('**/*.json'), 'must not claim every JSON file');
});

test('serverOnlyCommands drops commands the extension registers itself', () => {
  assert.deepEqual(serverOnlyCommands(['gddls.renderTests', 'gddls.other']), ['gddls.other']);
  assert.deepEqual(serverOnlyCommands(undefined), []);
  // What the server announces today: gddls.explain stays with the server
  // (the language client registers it and sends workspace/executeCommand).
  assert.deepEqual(serverOnlyCommands(['gddls.renderTests', 'gddls.explain']), ['gddls.explain']);
  // gddls.showReferences is the client's, should a server ever list it.
  assert.ok(CLIENT_COMMANDS.includes('gddls.showReferences'));
  assert.deepEqual(serverOnlyCommands(['gddls.showReferences', 'gddls.explain']), ['gddls.explain']);
});

test('gddls.review: only a boolean true turns review mode on, and it is sent on change', () => {
  assert.equal(initializationOptions(reader({})).gddls.review, false);
  assert.equal(initializationOptions(reader({ review: 'yes' })).gddls.review, false);
  assert.equal(initializationOptions(reader({ review: true })).gddls.review, true);
  assert.equal(didChangeConfigurationParams(reader({ review: true })).settings.gddls.review, true);
});
