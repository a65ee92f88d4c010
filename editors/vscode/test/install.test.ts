import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSTALL_PACKAGE } from '../src/binary';
import { goInstall, installedBinary, type ExecResult } from '../src/install';

test('installedBinary: GOBIN first, else the first GOPATH entry', async (t) => {
  const cases: { name: string; goEnv: string; platform: string; want: string | undefined }[] = [
    { name: 'GOBIN set', goEnv: '/gobin\n/home/u/go\n', platform: 'linux', want: '/gobin/gddls' },
    { name: 'GOPATH only', goEnv: '\n/home/u/go\n', platform: 'linux', want: '/home/u/go/bin/gddls' },
    { name: 'GOPATH list', goEnv: '\n/a:/b\n', platform: 'darwin', want: '/a/bin/gddls' },
    { name: 'windows, CRLF', goEnv: '\r\nC:\\Users\\u\\go;D:\\go\r\n', platform: 'win32', want: 'C:\\Users\\u\\go\\bin\\gddls.exe' },
    { name: 'nothing', goEnv: '\n\n', platform: 'linux', want: undefined },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(installedBinary(c.goEnv, c.platform), c.want));
  }
});

test('goInstall runs go install, then asks go where the binary went', async () => {
  const calls: string[][] = [];
  const exec = async (file: string, args: string[]): Promise<ExecResult> => {
    calls.push([file, ...args]);
    return args[0] === 'env' ? { code: 0, stdout: '\n/home/u/go\n', stderr: '' } : { code: 0, stdout: '', stderr: 'go: downloading ...\n' };
  };
  const r = await goInstall('/usr/bin/go', 'linux', exec);
  assert.deepEqual(r, { ok: true, binary: '/home/u/go/bin/gddls' });
  assert.deepEqual(calls, [
    ['/usr/bin/go', 'install', INSTALL_PACKAGE],
    ['/usr/bin/go', 'env', 'GOBIN', 'GOPATH'],
  ]);
});

test('a failed go install reports the end of its output', async () => {
  const exec = async (): Promise<ExecResult> => ({ code: 1, stdout: '', stderr: 'go: downloading x\ngo: module lookup disabled by GOPROXY=off\n' });
  const r = await goInstall('go', 'linux', exec);
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.match(r.message, /exit status 1/);
    assert.match(r.message, /GOPROXY=off/);
  }
});
