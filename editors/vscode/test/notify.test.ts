import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSTALL_URL } from '../src/binary';
import { INSTALL_INSTRUCTIONS, INSTALL_WITH_GO, MissingBinaryNotifier, OPEN_SETTINGS, type MissingBinaryContext } from '../src/notify';

function fakes(choice: string | undefined) {
  const shown: { message: string; items: string[] }[] = [];
  const executed: unknown[][] = [];
  const opened: string[] = [];
  let installs = 0;
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
  const actions = {
    openUrl: (url: string) => {
      opened.push(url);
      return Promise.resolve(true);
    },
    installWithGo: () => {
      installs++;
      return Promise.resolve();
    },
  };
  const notifier = new MissingBinaryNotifier(window, commands, actions);
  return { shown, executed, opened, installs: () => installs, notifier };
}

const noServer: MissingBinaryContext = { configured: false, goAvailable: false };

test('the missing-binary message is shown once until reset', async () => {
  const f = fakes(undefined);
  await f.notifier.notify('missing', noServer);
  await f.notifier.notify('missing', noServer);
  await f.notifier.notify('missing', { configured: false, goAvailable: true });
  assert.equal(f.shown.length, 1);
  assert.equal(f.executed.length + f.opened.length + f.installs(), 0);
  f.notifier.reset();
  await f.notifier.notify('missing', noServer);
  assert.equal(f.shown.length, 2);
});

test('the buttons depend on the setting and on go being on PATH', async (t) => {
  const cases: { name: string; ctx: MissingBinaryContext; want: string[] }[] = [
    { name: 'no server, no go', ctx: { configured: false, goAvailable: false }, want: [INSTALL_INSTRUCTIONS, OPEN_SETTINGS] },
    { name: 'no server, go on PATH', ctx: { configured: false, goAvailable: true }, want: [INSTALL_INSTRUCTIONS, INSTALL_WITH_GO, OPEN_SETTINGS] },
    { name: 'gddls.path names a missing file', ctx: { configured: true, goAvailable: true }, want: [OPEN_SETTINGS, INSTALL_INSTRUCTIONS] },
  ];
  for (const c of cases) {
    await t.test(c.name, async () => {
      const f = fakes(undefined);
      await f.notifier.notify('missing', c.ctx);
      assert.deepEqual(f.shown[0].items, c.want);
    });
  }
});

test('each button does what it says', async (t) => {
  await t.test(OPEN_SETTINGS, async () => {
    const f = fakes(OPEN_SETTINGS);
    await f.notifier.notify('missing', noServer);
    assert.deepEqual(f.executed, [['workbench.action.openSettings', 'gddls.path']]);
    assert.equal(f.opened.length + f.installs(), 0);
  });
  await t.test(INSTALL_INSTRUCTIONS, async () => {
    const f = fakes(INSTALL_INSTRUCTIONS);
    await f.notifier.notify('missing', noServer);
    assert.deepEqual(f.opened, [INSTALL_URL]);
    assert.equal(f.executed.length + f.installs(), 0);
  });
  await t.test(INSTALL_WITH_GO, async () => {
    const f = fakes(INSTALL_WITH_GO);
    await f.notifier.notify('missing', { configured: false, goAvailable: true });
    assert.equal(f.installs(), 1);
    assert.equal(f.executed.length + f.opened.length, 0);
  });
});
