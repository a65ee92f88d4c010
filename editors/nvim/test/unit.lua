-- Headless unit tests of the gddls Neovim client; no server needed.
--   nvim --headless -u NONE --cmd 'set rtp^=editors/nvim' -c 'luafile editors/nvim/test/unit.lua'
-- Prints "N passed, M failed" and exits non-zero on a failure.
local passed, failed = 0, 0

local function out(msg)
  io.stdout:write(msg .. '\n')
end

local function test(name, fn)
  local ok, err = pcall(fn)
  if ok then
    passed = passed + 1
  else
    failed = failed + 1
    out('FAIL ' .. name .. ': ' .. tostring(err))
  end
end

local function eq(got, want, what)
  if not vim.deep_equal(got, want) then
    error(string.format('%s: got %s, want %s', what or 'value', vim.inspect(got), vim.inspect(want)), 2)
  end
end

local function truthy(v, what)
  if not v then
    error((what or 'condition') .. ' is false', 2)
  end
end

local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local plugin_root = vim.fn.fnamemodify(here, ':h')
local strict = dofile(here .. '/strict.lua')
vim.cmd('filetype on')
vim.cmd('runtime! plugin/gddls.lua')

local gddls = require('gddls')

-- A temporary tree:
--   T/pkg/{tuning.json, contracts/a.json, contracts/b.pack.json, notes.json, sub/deeper/x.md}
--   T/pkg2/contracts/c.json      (only the contracts folder marks the root)
--   T/repo/.git/, T/repo/docs/y.md (only .git marks the root)
local T = vim.fn.resolve(vim.fn.tempname())
local function write(path, text)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  vim.fn.writefile({ text or '{}' }, path)
end
write(T .. '/pkg/tuning.json', '{"values":{}}')
write(T .. '/pkg/contracts/a.json')
write(T .. '/pkg/contracts/b.pack.json')
write(T .. '/pkg/notes.json')
write(T .. '/pkg/sub/deeper/x.md', '# x')
write(T .. '/pkg2/contracts/c.json')
vim.fn.mkdir(T .. '/repo/.git', 'p')
write(T .. '/repo/docs/y.md', '# y')

local markers = gddls.options.root_markers

test('defaults before setup', function()
  eq(gddls.options.cmd, { 'gddls', 'serve' }, 'cmd')
  eq(gddls.options.root_markers, { 'tuning.json', 'manifest.json', 'contracts', '.git' }, 'root_markers')
  eq(gddls.options.filetypes, { 'json', 'markdown' }, 'filetypes')
  eq(gddls.options.settings, { gddls = { diagnosticsDelay = 50 } }, 'settings')
end)

test('resolve_options keeps defaults and merges settings deeply', function()
  local o = gddls.resolve_options({ cmd = { '/x/gddls' }, settings = { gddls = { diagnosticsDelay = 7 }, other = true } })
  eq(o.cmd, { '/x/gddls' }, 'cmd')
  eq(o.filetypes, { 'json', 'markdown' }, 'filetypes')
  eq(o.settings, { gddls = { diagnosticsDelay = 7 }, other = true }, 'settings')
  eq(gddls.resolve_options(nil), gddls.resolve_options({}), 'nil opts')
  -- The defaults are fresh tables: changing a result does not leak.
  local a = gddls.resolve_options({})
  table.insert(a.cmd, '--stdio')
  eq(gddls.resolve_options({}).cmd, { 'gddls', 'serve' }, 'fresh defaults')
end)

test('resolve_options rejects options of the wrong type', function()
  truthy(not pcall(gddls.resolve_options, { cmd = 'gddls serve' }), 'string cmd rejected')
  truthy(not pcall(gddls.resolve_options, { settings = 5 }), 'number settings rejected')
end)

test('find_root', function()
  local cases = {
    { T .. '/pkg/contracts/a.json', T .. '/pkg' },
    { T .. '/pkg/tuning.json', T .. '/pkg' },
    { T .. '/pkg/sub/deeper/x.md', T .. '/pkg' },
    { T .. '/pkg/sub/deeper/not-yet-saved.md', T .. '/pkg' },
    { T .. '/pkg/sub', T .. '/pkg' },
    { T .. '/pkg2/contracts/c.json', T .. '/pkg2' },
    { T .. '/repo/docs/y.md', T .. '/repo' },
  }
  for _, c in ipairs(cases) do
    eq(gddls.find_root(c[1], markers), c[2], 'root of ' .. c[1])
  end
  eq(gddls.find_root(T .. '/pkg/contracts/a.json', { 'no-such-marker-7f3a' }), nil, 'no marker')
  eq(gddls.find_root('', markers), nil, 'empty name')
  eq(gddls.find_root(T .. '/repo/docs/y.md', { 'tuning.json' }), nil, 'marker not above')
end)

test('is_package_file', function()
  local cases = {
    { '/p/contracts/a.json', 'json', true },
    { '/p/contracts/a-1.pack.json', 'json', true },
    { '/p/tuning.json', 'json', true },
    { '/p/manifest.json', 'json', true },
    { '/p/clocks.json', 'json', true },
    { '/p/direction.json', 'json', true },
    { '/p/personalization.json', 'json', true },
    { '/p/opengdd-build.json', 'json', true },
    { '/p/collections/remedies/antidote.json', 'json', true },
    { '/p/collections/remedies/_collection.json', 'json', true },
    { 'collections/remedies/antidote.json', 'json', true },
    { '/p/collections/stray.json', 'json', false },
    { '/p/collections/remedies/sub/a.json', 'json', false },
    { '/p/package.json', 'json', false },
    { '/p/contracts/sub/a.json', 'json', false },
    { '/p/README.md', 'markdown', true },
  }
  for _, c in ipairs(cases) do
    eq(gddls.is_package_file(c[1], c[2]), c[3], c[1])
  end
end)

test('client_config passes settings as init_options and settings', function()
  gddls.setup({ cmd = { 'sleep', '60' }, settings = { gddls = { diagnosticsDelay = 5 } } })
  local c = gddls.client_config('/r')
  eq(c.name, 'gddls', 'name')
  eq(c.root_dir, '/r', 'root_dir')
  eq(c.cmd, { 'sleep', '60' }, 'cmd')
  -- Push diagnostics on every version: Neovim 0.12 would pull only for
  -- open buffers and lose the findings of the other files.
  eq(c.init_options, { gddls = { diagnosticsDelay = 5, pullDiagnostics = false } }, 'init_options')
  eq(c.settings, { gddls = { diagnosticsDelay = 5 } }, 'settings')
  eq(type(c.commands['gddls.showReferences']), 'function', 'commands[gddls.showReferences]')
  eq(type(c.on_attach), 'function', 'on_attach')
  -- A user may still ask for pull diagnostics.
  gddls.setup({ cmd = { 'sleep', '60' }, settings = { gddls = { pullDiagnostics = true } } })
  eq(gddls.client_config('/r').init_options, { gddls = { diagnosticsDelay = 50, pullDiagnostics = true } }, 'init_options with pull')
  -- Review mode (gddls.review, off in the server by default) reaches the
  -- server at start and in didChangeConfiguration.
  gddls.setup({ cmd = { 'sleep', '60' }, settings = { gddls = { review = true } } })
  local r = gddls.client_config('/r')
  eq(r.init_options, { gddls = { diagnosticsDelay = 50, review = true, pullDiagnostics = false } }, 'init_options with review')
  eq(r.settings, { gddls = { diagnosticsDelay = 50, review = true } }, 'settings with review')
end)

test('inlay_hints option: default on, validated, and used only where Neovim has inlay hints', function()
  eq(gddls.resolve_options({}).inlay_hints, true, 'default')
  eq(gddls.resolve_options({ inlay_hints = false }).inlay_hints, false, 'off')
  truthy(not pcall(gddls.resolve_options, { inlay_hints = 'yes' }), 'string inlay_hints rejected')
  eq(gddls.has_inlay_hints(), vim.fn.has('nvim-0.10') == 1, 'has_inlay_hints')
  local offered = { server_capabilities = { inlayHintProvider = true } }
  local buf = vim.api.nvim_create_buf(false, true)
  gddls.setup({ cmd = { 'sleep', '60' }, inlay_hints = false })
  eq(gddls.enable_inlay_hints(offered, buf), false, 'option off')
  gddls.setup({ cmd = { 'sleep', '60' } })
  eq(gddls.enable_inlay_hints({ server_capabilities = {} }, buf), false, 'server offers none')
  -- Enabling is checked on a real client in e2e.lua.
  vim.api.nvim_buf_delete(buf, { force = true })
end)

test('gddls.showReferences fills the quickfix list from the lens arguments and opens it', function()
  local f1, f2 = T .. '/pkg/refs-a.md', T .. '/pkg/refs-b.md'
  vim.fn.writefile({ 'one', 'see [x](y.md#burn) here' }, f1)
  vim.fn.writefile({ 'a', 'b', 'c', '  "02-mechanics.md#burn"' }, f2)
  local function loc(path, line, col)
    return { uri = vim.uri_from_fname(path), range = { start = { line = line, character = col }, ['end'] = { line = line, character = col + 4 } } }
  end
  local command = {
    title = '2 references',
    command = 'gddls.showReferences',
    arguments = { vim.uri_from_fname(f1), { line = 0, character = 0 }, { loc(f1, 1, 4), loc(f2, 3, 2) } },
  }
  local cfg = gddls.client_config('/r')
  vim.fn.setqflist({}, 'r')
  cfg.commands['gddls.showReferences'](command, { bufnr = 0, client_id = 1 })
  local qf = vim.fn.getqflist({ title = 1, items = 1, winid = 1 })
  eq(qf.title, '2 references', 'title')
  eq(#qf.items, 2, 'items')
  local got = {}
  for _, it in ipairs(qf.items) do
    table.insert(got, { vim.api.nvim_buf_get_name(it.bufnr), it.lnum, it.col })
  end
  table.sort(got, function(a, b) return a[1] < b[1] end)
  eq(got, { { f1, 2, 5 }, { f2, 4, 3 } }, 'places')
  truthy(qf.winid ~= 0, 'the quickfix window is open')
  vim.cmd('cclose')
end)

-- Stops every client; vim.lsp.get_active_clients is deprecated since 0.10.
local function stop_all()
  local list = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  for _, c in ipairs(list) do
    if vim.fn.has('nvim-0.11') == 1 then
      c:stop(true)
    else
      c.stop(true)
    end
  end
end

local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_buf()
end

-- The id of the gddls client attached to buf, initialized or not (a fake
-- server never finishes initializing, so vim.lsp.buf_get_clients would not
-- list it on 0.7).
local function client_id(buf)
  for id = 1, 200 do
    local c = vim.lsp.get_client_by_id(id)
    if c and c.name == 'gddls' and not gddls.is_stopped(c) and vim.lsp.buf_is_attached(buf, id) then
      return id
    end
  end
  return nil
end

test('setup starts one client per root with a fake cmd and reuses it', function()
  gddls.setup({ cmd = { 'sleep', '60' } })
  local a = open(T .. '/pkg/contracts/a.json')
  eq(vim.bo[a].filetype, 'json', 'filetype of a.json')
  local id = client_id(a)
  truthy(id, 'client attached to contracts/a.json')
  eq(vim.lsp.get_client_by_id(id).config.cmd, { 'sleep', '60' }, 'cmd used')
  eq(vim.lsp.get_client_by_id(id).config.root_dir, T .. '/pkg', 'root_dir')
  eq(client_id(open(T .. '/pkg/tuning.json')), id, 'same client for tuning.json')
  eq(client_id(open(T .. '/pkg/sub/deeper/x.md')), id, 'same client for Markdown in the package')
  eq(client_id(open(T .. '/pkg/notes.json')), nil, 'no client for other JSON')
  local other = client_id(open(T .. '/pkg2/contracts/c.json'))
  truthy(other and other ~= id, 'second root gets its own client')
  stop_all()
end)

test('setup attaches buffers that were open before it', function()
  vim.cmd('silent! autocmd! gddls')
  local b = open(T .. '/repo/docs/y.md')
  eq(client_id(b), nil, 'no client before setup')
  gddls.setup({ cmd = { 'sleep', '60' } })
  truthy(client_id(b), 'client after setup')
  stop_all()
end)

test(':GddlsRenderTests exists and refuses a non-adoption buffer', function()
  eq(vim.fn.exists(':GddlsRenderTests'), 2, 'command defined')
  open(T .. '/pkg/tuning.json')
  local got
  local notify = vim.notify
  vim.notify = function() end
  gddls.render_tests(0, function(err)
    got = err
  end)
  vim.notify = notify
  truthy(got and got:match('not an adoption'), 'error for tuning.json: ' .. tostring(got))
end)

test('render_tests without a client says so', function()
  stop_all()
  vim.cmd('silent! autocmd! gddls')
  local b = open(T .. '/pkg2/contracts/c.json')
  vim.wait(2000, function()
    return gddls.client_for(b) == nil
  end)
  local got
  local notify = vim.notify
  vim.notify = function() end
  gddls.render_tests(b, function(err)
    got = err
  end)
  vim.notify = notify
  truthy(got and got:match('no gddls client'), 'error: ' .. tostring(got))
end)

test('show_scratch makes a read-only Markdown scratch buffer and reuses it', function()
  local b = gddls.show_scratch('gddls-tests://a.tests.md', '# Tests\r\n\r\n- one\n')
  eq(vim.api.nvim_buf_get_lines(b, 0, -1, false), { '# Tests', '', '- one' }, 'lines')
  eq(vim.bo[b].buftype, 'nofile', 'buftype')
  eq(vim.bo[b].modifiable, false, 'modifiable')
  eq(vim.bo[b].filetype, 'markdown', 'filetype')
  local again = gddls.show_scratch('gddls-tests://a.tests.md', 'new')
  eq(again, b, 'same buffer')
  eq(vim.api.nvim_buf_get_lines(b, 0, -1, false), { 'new' }, 'replaced lines')
end)

test('lsp/gddls.lua returns a vim.lsp.config table', function()
  local cfg = dofile(plugin_root .. '/lsp/gddls.lua')
  eq(cfg.cmd, { 'gddls', 'serve' }, 'cmd')
  eq(cfg.filetypes, { 'json', 'markdown' }, 'filetypes')
  eq(cfg.root_markers, { 'tuning.json', 'manifest.json', 'contracts', '.git' }, 'root_markers')
  eq(cfg.settings, { gddls = { diagnosticsDelay = 50 } }, 'settings')
  eq(cfg.init_options, { gddls = { diagnosticsDelay = 50, pullDiagnostics = false } }, 'init_options')
  eq(type(cfg.commands['gddls.showReferences']), 'function', 'commands[gddls.showReferences]')
  eq(type(cfg.on_attach), 'function', 'on_attach')
end)

test('doc/gddls.txt passes :helptags', function()
  local dir = T .. '/doc'
  vim.fn.mkdir(dir, 'p')
  vim.fn.writefile(vim.fn.readfile(plugin_root .. '/doc/gddls.txt'), dir .. '/gddls.txt')
  vim.cmd('helptags ' .. vim.fn.fnameescape(dir))
  local tags = table.concat(vim.fn.readfile(dir .. '/tags'), '\n')
  for _, tag in ipairs({ 'gddls', 'gddls.setup()', ':GddlsRenderTests', 'gddls-lspconfig', 'gddls-opts.inlay_hints',
    'gddls-inlay-hints', 'gddls-references', 'gddls-pull-diagnostics' }) do
    truthy(tags:find(tag .. '\t', 1, true), 'tag ' .. tag)
  end
end)

local v = vim.version()
test(string.format('no deprecated function was called on %d.%d.%d', v.major, v.minor, v.patch), function()
  local report = strict.report()
  if report then
    error(report)
  end
end)

vim.fn.delete(T, 'rf')
out(string.format('nvim-unit: %d passed, %d failed', passed, failed))
if failed > 0 then
  vim.cmd('cquit 1')
else
  vim.cmd('qa!')
end
