import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as vscode from 'vscode';
import { TESTS_SCHEME, TestsContentProvider, adoptionId, renderTests, type RenderDeps } from '../src/tests';

test('adoptionId recognises adoption files only', () => {
  const cases: [string, string | undefined][] = [
    ['/pkg/contracts/windows.json', 'windows'],
    ['C:\\pkg\\contracts\\poison-window.json', 'poison-window'],
    ['/pkg/contracts/timed-window-2.pack.json', undefined],
    ['/pkg/contracts/.draft.json', undefined],
    ['/pkg/tuning.json', undefined],
    ['/pkg/contracts/sub/x.json', undefined],
    ['/pkg/notcontracts/x.json', undefined],
  ];
  for (const [path, want] of cases) {
    assert.equal(adoptionId(path), want, path);
  }
});

function deps(over: Partial<RenderDeps>) {
  const errors: string[] = [];
  const infos: string[] = [];
  const opened: vscode.Uri[] = [];
  const requested: string[] = [];
  const provider = new TestsContentProvider();
  const d: RenderDeps = {
    active: vscode.Uri.file('/pkg/contracts/windows.json'),
    execute: async (uri) => {
      requested.push(uri);
      return '# Tests\n\n- one\n';
    },
    provider,
    open: async (uri) => {
      opened.push(uri);
    },
    showError: (m) => errors.push(m),
    showInfo: (m) => infos.push(m),
    ...over,
  };
  return { d, errors, infos, opened, requested, provider };
}

test('renderTests sends the adoption URI and opens the Markdown read-only document', async () => {
  const f = deps({});
  const changed: string[] = [];
  f.provider.onDidChange((u) => changed.push(u.toString()));
  const uri = await renderTests(f.d);
  assert.ok(uri);
  assert.deepEqual(f.requested, ['file:///pkg/contracts/windows.json']);
  assert.equal(uri.scheme, TESTS_SCHEME);
  assert.equal(uri.path, '/windows.tests.md');
  assert.equal(f.opened.length, 1);
  assert.equal(f.provider.provideTextDocumentContent(uri), '# Tests\n\n- one\n');
  assert.deepEqual(changed, [uri.toString()]);
  assert.deepEqual(f.errors, []);
});

test('renderTests refuses when the active document is not an adoption', async () => {
  for (const active of [undefined, vscode.Uri.file('/pkg/tuning.json'), vscode.Uri.from({ scheme: 'untitled', path: '/contracts/a.json' })]) {
    const f = deps({ active });
    assert.equal(await renderTests(f.d), undefined);
    assert.equal(f.requested.length, 0);
    assert.equal(f.errors.length, 1);
    assert.match(f.errors[0], /adoption file/);
  }
});

test('renderTests reports a stopped server, a failed request and a non-string result', async () => {
  const stopped = deps({ execute: undefined });
  assert.equal(await renderTests(stopped.d), undefined);
  assert.match(stopped.errors[0], /not running/);

  const failing = deps({ execute: async () => { throw new Error('boom'); } });
  assert.equal(await renderTests(failing.d), undefined);
  assert.match(failing.errors[0], /boom/);
  assert.equal(failing.opened.length, 0);

  const wrong = deps({ execute: async () => null });
  assert.equal(await renderTests(wrong.d), undefined);
  assert.match(wrong.errors[0], /no Markdown/);
});

test('renderTests shows the server refusing a promised adoption as information, not an error', async () => {
  const reason = 'garden-away is promised: there is no contracts/garden-away.pack.json, so no tests are generated';
  const refused = deps({ execute: async () => { throw Object.assign(new Error(reason), { code: -32803 }); } });
  assert.equal(await renderTests(refused.d), undefined);
  assert.deepEqual(refused.errors, []);
  assert.deepEqual(refused.infos, [`gddls: ${reason}`]);
  assert.equal(refused.opened.length, 0);

  const internal = deps({ execute: async () => { throw Object.assign(new Error('panic'), { code: -32603 }); } });
  assert.equal(await renderTests(internal.d), undefined);
  assert.deepEqual(internal.infos, []);
  assert.match(internal.errors[0], /rendering the tests failed: panic/);
});

test('a document that was never rendered shows a hint, and dispose clears content', async () => {
  const f = deps({});
  const uri = await renderTests(f.d);
  assert.ok(uri);
  const other = f.provider.uriFor(vscode.Uri.file('/pkg/contracts/other.json'));
  assert.match(f.provider.provideTextDocumentContent(other), /Render Contract Tests/);
  f.provider.dispose();
  assert.match(f.provider.provideTextDocumentContent(uri), /Render Contract Tests/);
});
