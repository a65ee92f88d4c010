import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSTALL_COMMAND, bundledPath, findOnPath, pathCandidates, resolveBinary, type ResolveInput } from '../src/binary';

function input(over: Partial<ResolveInput>, files: string[]): ResolveInput {
  const set = new Set(files);
  return {
    configuredPath: '',
    extensionPath: '/ext',
    platform: 'linux',
    arch: 'x64',
    env: { PATH: '/usr/local/bin:/usr/bin', HOME: '/home/u' },
    isExecutable: (f) => set.has(f),
    ...over,
  };
}

test('resolveBinary picks the source in order of precedence', async (t) => {
  const cases: { name: string; over: Partial<ResolveInput>; files: string[]; want: string; source: string }[] = [
    { name: 'setting wins over bundled', over: { configuredPath: '/opt/gddls' }, files: ['/opt/gddls', '/ext/bin/linux-x64/gddls'], want: '/opt/gddls', source: 'setting' },
    { name: 'setting with ~', over: { configuredPath: '~/bin/gddls' }, files: ['/home/u/bin/gddls'], want: '/home/u/bin/gddls', source: 'setting' },
    { name: 'whitespace setting counts as empty', over: { configuredPath: '  ' }, files: ['/ext/bin/linux-x64/gddls'], want: '/ext/bin/linux-x64/gddls', source: 'bundled' },
    { name: 'bundled wins over PATH', over: {}, files: ['/ext/bin/linux-x64/gddls', '/usr/bin/gddls'], want: '/ext/bin/linux-x64/gddls', source: 'bundled' },
    { name: 'bundled for another arch is ignored', over: { arch: 'arm64' }, files: ['/ext/bin/linux-x64/gddls', '/usr/bin/gddls'], want: '/usr/bin/gddls', source: 'path' },
    { name: 'first PATH entry wins', over: {}, files: ['/usr/local/bin/gddls', '/usr/bin/gddls'], want: '/usr/local/bin/gddls', source: 'path' },
    { name: 'go install folder as last resort', over: { env: { PATH: '/usr/bin', HOME: '/home/u', GOPATH: '/gp' } }, files: ['/gp/bin/gddls', '/home/u/go/bin/gddls'], want: '/gp/bin/gddls', source: 'go' },
    { name: 'GOBIN before GOPATH', over: { env: { PATH: '', GOBIN: '/gobin', GOPATH: '/gp' } }, files: ['/gp/bin/gddls', '/gobin/gddls'], want: '/gobin/gddls', source: 'go' },
    { name: 'windows bundled exe', over: { platform: 'win32', extensionPath: 'C:\\ext', env: { Path: 'C:\\tools' } }, files: ['C:\\ext\\bin\\win32-x64\\gddls.exe'], want: 'C:\\ext\\bin\\win32-x64\\gddls.exe', source: 'bundled' },
    { name: 'installed by Install with Go, tried last', over: { installed: '/custom/gobin/gddls' }, files: ['/custom/gobin/gddls'], want: '/custom/gobin/gddls', source: 'go' },
    { name: 'PATH before the installed binary', over: { installed: '/custom/gobin/gddls' }, files: ['/custom/gobin/gddls', '/usr/bin/gddls'], want: '/usr/bin/gddls', source: 'path' },
    { name: 'universal package: no bin folder, PATH', over: {}, files: ['/usr/bin/gddls'], want: '/usr/bin/gddls', source: 'path' },
    { name: 'windows PATH with PATHEXT', over: { platform: 'win32', extensionPath: 'C:\\ext', env: { Path: 'C:\\a;C:\\tools', PATHEXT: '.COM;.EXE' } }, files: ['C:\\tools\\gddls.exe'], want: 'C:\\tools\\gddls.exe', source: 'path' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const r = resolveBinary(input(c.over, c.files));
      assert.equal(r.found, true, JSON.stringify(r));
      if (r.found) {
        assert.equal(r.command, c.want);
        assert.equal(r.source, c.source);
      }
    });
  }
});

test('a missing binary yields one message naming the install command and the setting', () => {
  const r = resolveBinary(input({}, []));
  assert.equal(r.found, false);
  if (!r.found) {
    assert.match(r.message, new RegExp(INSTALL_COMMAND.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
    assert.match(r.message, /gddls\.path/);
    assert.ok(r.tried.includes('/ext/bin/linux-x64/gddls'));
    assert.ok(r.tried.includes('/usr/bin/gddls'));
    assert.ok(r.tried.includes('/home/u/go/bin/gddls'));
  }
});

test('a configured path that does not exist is reported, without falling back', () => {
  const r = resolveBinary(input({ configuredPath: '/nope/gddls' }, ['/usr/bin/gddls']));
  assert.equal(r.found, false);
  if (!r.found) {
    assert.match(r.message, /\/nope\/gddls/);
    assert.deepEqual(r.tried, ['/nope/gddls']);
  }
});

test('bundledPath and pathCandidates', () => {
  assert.equal(bundledPath('/e', 'darwin', 'arm64'), '/e/bin/darwin-arm64/gddls');
  assert.deepEqual(pathCandidates('linux', { PATH: '/a::/b' }), ['/a/gddls', '/b/gddls']);
  assert.deepEqual(pathCandidates('linux', {}), []);
  assert.deepEqual(pathCandidates('win32', { Path: 'C:\\go\\bin', PATHEXT: '.EXE' }, 'go'), ['C:\\go\\bin\\go.exe']);
});

test('findOnPath finds go for the Install with Go button', () => {
  const env = { PATH: '/usr/local/go/bin:/usr/bin' };
  assert.equal(findOnPath('go', 'linux', env, (f) => f === '/usr/bin/go'), '/usr/bin/go');
  assert.equal(findOnPath('go', 'linux', env, () => false), undefined);
});
