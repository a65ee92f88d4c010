import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MissingBinaryNotifier, OPEN_SETTINGS } from '../src/notify';

function fakes(choice: string | undefined) {
  const shown: { message: string; items: string[] }[] = [];
  const executed: unknown[][] = [];
  const window = {
    showErrorMessage: (message: string, ...items: string[]) => {
      shown.push({ message, items });
      return Promise.resolve(choice);
    },
  };
  const commands = {
    executeCommand: (command: string, ...args: unknown[]) => {
      executed.push([command, ...args]);
      return Promise.resolve(undefined);
    },
  };
  return { shown, executed, window, commands };
}

test('the missing-binary message is shown once until reset', async () => {
  const f = fakes(undefined);
  const n = new MissingBinaryNotifier(f.window, f.commands);
  await n.notify('missing');
  await n.notify('missing');
  await n.notify('missing');
  assert.equal(f.shown.length, 1);
  assert.deepEqual(f.shown[0].items, [OPEN_SETTINGS]);
  assert.equal(f.executed.length, 0);
  n.reset();
  await n.notify('missing');
  assert.equal(f.shown.length, 2);
});

test('the Open Settings button opens the gddls.path setting', async () => {
  const f = fakes(OPEN_SETTINGS);
  await new MissingBinaryNotifier(f.window, f.commands).notify('missing');
  assert.deepEqual(f.executed, [['workbench.action.openSettings', 'gddls.path']]);
});
