-- End-to-end test of the gddls Neovim client against a real server.
-- Run through test/run.sh, which sets:
--   GDDLS_BIN      path of the gddls binary
--   GDDLS_PACKAGE  a scratch copy of test/fixture
--   GDDLS_E2E_TIMEOUT_MS (optional) how long to wait for diagnostics, default 20000
--   GDDLS_E2E_MODE (optional) "setup" (default): require('gddls').setup();
--                  "enable" (0.11+): vim.lsp.config + vim.lsp.enable('gddls')
--                  through the shipped lsp/gddls.lua, with no setup()
-- Fails as well when anything called vim.deprecate (test/strict.lua).
-- Exits 0 after printing "nvim e2e: 1 passed, 0 failed", else non-zero.
local DANGLING = 'CONTRACT_CITATION_DANGLING'
local PREFIX = '"02-mechanics.md#'
local MISSPELT = PREFIX .. 'poision"'

local strict = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/strict.lua')

local function out(msg)
  io.stdout:write(msg .. '\n')
end

local function fail(msg)
  out('nvim e2e: FAIL: ' .. msg)
  out('nvim e2e: 0 passed, 1 failed')
  vim.cmd('cquit 1')
end

local function describe(diags)
  local parts = {}
  for _, d in ipairs(diags) do
    table.insert(parts, string.format('%s@%d:%d %q', tostring(d.code), d.lnum + 1, d.col + 1, d.message or ''))
  end
  return #parts == 0 and 'none' or table.concat(parts, '; ')
end

local function code_of(d)
  if d.code ~= nil then
    return d.code
  end
  local lsp = d.user_data and d.user_data.lsp
  return lsp and lsp.code
end

local function main()
  local bin = os.getenv('GDDLS_BIN') or ''
  local pkg = os.getenv('GDDLS_PACKAGE') or ''
  local timeout = tonumber(os.getenv('GDDLS_E2E_TIMEOUT_MS') or '') or 20000
  if bin == '' or pkg == '' then
    return fail('GDDLS_BIN and GDDLS_PACKAGE must be set; run editors/nvim/test/run.sh PATH_TO_GDDLS')
  end

  local mode = os.getenv('GDDLS_E2E_MODE') or 'setup'
  vim.cmd('filetype on')
  vim.cmd('runtime! plugin/gddls.lua')
  local gddls = require('gddls')
  if mode == 'enable' then
    if not vim.lsp.enable then
      return fail('GDDLS_E2E_MODE=enable needs Neovim 0.11 or later')
    end
    vim.lsp.config('gddls', { cmd = { bin, 'serve' } })
    vim.lsp.enable('gddls')
  elseif mode == 'setup' then
    gddls.setup({ cmd = { bin, 'serve' } })
  else
    return fail('unknown GDDLS_E2E_MODE ' .. mode)
  end

  local file = pkg .. '/contracts/windows.json'
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  if vim.bo[buf].filetype ~= 'json' then
    return fail('filetype detection gave ' .. vim.inspect(vim.bo[buf].filetype) .. ' for ' .. file .. ', want json')
  end
  local id
  if mode == 'enable' then
    -- vim.lsp.enable attaches on FileType by itself.
    vim.wait(5000, function()
      id = gddls.client_for(buf) and gddls.client_for(buf).id
      return id ~= nil
    end, 20)
    if not id then
      return fail('vim.lsp.enable(\'gddls\') started no client for ' .. file .. ' (is lsp/gddls.lua on the runtimepath?)')
    end
  else
    id = gddls.attach(buf)
  end
  if not id then
    return fail('the plugin did not start a client for ' .. file)
  end

  -- 1. Wait for the dangling-citation diagnostic, or for the server to die.
  local exited = false
  local function dangling()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if code_of(d) == DANGLING then
        return d
      end
    end
    return nil
  end
  local found = vim.wait(timeout, function()
    local c = vim.lsp.get_client_by_id(id)
    if c == nil or gddls.is_stopped(c) then
      exited = true
      return true
    end
    return dangling() ~= nil
  end, 50)
  if exited and not dangling() then
    return fail(string.format('the server (%s serve) exited before publishing diagnostics; see the LSP log', bin))
  end
  if not found then
    local c = vim.lsp.get_client_by_id(id)
    local state = c and (c.initialized and 'initialized' or 'not initialized (no answer to initialize)') or 'gone'
    return fail(string.format(
      'timeout: no %s diagnostic on contracts/windows.json after %d ms; client %s; diagnostics: %s',
      DANGLING, timeout, state, describe(vim.diagnostic.get(buf))))
  end
  local d = dangling()
  if d.source ~= nil and d.source ~= 'gddls' then
    return fail('diagnostic source is ' .. vim.inspect(d.source) .. ', want "gddls"')
  end

  -- 2. Completion right after "02-mechanics.md# in the misspelt citation.
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local lnum, byte
  for i, line in ipairs(lines) do
    local s = line:find(MISSPELT, 1, true)
    if s then
      lnum, byte = i, s - 1 + #PREFIX
      break
    end
  end
  if not lnum then
    return fail('the fixture has no ' .. MISSPELT .. ' citation')
  end
  vim.api.nvim_win_set_cursor(0, { lnum, byte })
  local utf16
  if vim.fn.has('nvim-0.11') == 1 then
    utf16 = vim.str_utfindex(lines[lnum], 'utf-16', byte)
  else
    utf16 = select(2, vim.str_utfindex(lines[lnum], byte))
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = lnum - 1, character = utf16 },
    context = { triggerKind = 1 },
  }
  local results, err = vim.lsp.buf_request_sync(buf, 'textDocument/completion', params, 10000)
  if not results then
    return fail('textDocument/completion got no answer: ' .. tostring(err))
  end
  local labels = {}
  for _, r in pairs(results) do
    if r.err then
      return fail('textDocument/completion failed: ' .. vim.inspect(r.err))
    end
    local items = r.result and (r.result.items or r.result) or {}
    for _, item in ipairs(items) do
      table.insert(labels, item.label)
      local text = item.insertText or (item.textEdit and item.textEdit.newText)
      if item.label == 'poison' or text == 'poison' then
        local report = strict.report()
        if report then
          return fail(report)
        end
        out(string.format('nvim e2e (%s): 1 passed, 0 failed', mode))
        vim.cmd('qa!')
        return
      end
    end
  end
  return fail(string.format('completion at %d:%d offered no "poison" item; labels: %s',
    params.position.line, params.position.character, #labels == 0 and 'none' or table.concat(labels, ', ')))
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  fail('error: ' .. tostring(err))
end
