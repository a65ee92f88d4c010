-- End-to-end test of the gddls Neovim client against a real server.
-- Run through test/run.sh, which sets:
--   GDDLS_BIN      path of the gddls binary
--   GDDLS_PACKAGE  a scratch copy of test/fixture
--   GDDLS_DEMO     a scratch copy of testdata/demo (direction.json, collections)
--   GDDLS_E2E_TIMEOUT_MS (optional) how long to wait for diagnostics, default 20000
--   GDDLS_E2E_MODE (optional) "setup" (default): require('gddls').setup();
--                  "enable" (0.11+): vim.lsp.config + vim.lsp.enable('gddls')
--                  through the shipped lsp/gddls.lua, with no setup()
-- Fails as well when anything called vim.deprecate (test/strict.lua).
-- Exits 0 after printing "nvim e2e: 1 passed, 0 failed", else non-zero.
local DANGLING = 'CONTRACT_CITATION_DANGLING'
local PREFIX = '"02-mechanics.md#'
local MISSPELT = PREFIX .. 'poision"'

local check_references, check_inlay_hints, check_colors, check_record_completion
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

--- Opens root/name and returns its buffer and the gddls client attached
--- to it, or nil and what went wrong.
local function open_attached(gddls, root, name, timeout)
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. name))
  local buf = vim.api.nvim_get_current_buf()
  local client
  vim.wait(timeout, function()
    client = gddls.client_for(buf)
    return client ~= nil and client.initialized ~= false
  end, 20)
  if not client then
    return nil, nil, 'no gddls client attached to ' .. name
  end
  return buf, client
end

--- The line (1-based) of the first line of buf that starts with text.
local function line_of(buf, text)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:sub(1, #text) == text then
      return i
    end
  end
  return nil
end

--- Opens path with gddls attached and finds the first line that starts
--- with text: returns the buffer, the client and the line (1-based), or
--- nil and what went wrong.
local function open_at_line(gddls, root, name, text, timeout)
  local buf, client, err = open_attached(gddls, root, name, timeout)
  if err then
    return nil, nil, nil, err
  end
  local lnum = line_of(buf, text)
  if not lnum then
    return nil, nil, nil, name .. ' has no line starting with ' .. vim.inspect(text)
  end
  return buf, client, lnum
end

check_references = function(gddls, pkg, timeout)
  local buf, client, lnum, err = open_at_line(gddls, pkg, '02-mechanics.md', '## Burn', timeout)
  if err then
    return err
  end
  vim.api.nvim_win_set_cursor(0, { lnum, 0 })
  vim.fn.setqflist({}, 'r')
  if vim.fn.has('nvim-0.12') == 1 then
    -- 0.12 asks the server for the lenses of the line and runs the one there.
    vim.lsp.codelens.run()
  else
    -- Before 0.12, run() runs the lenses that refresh() stored.
    vim.lsp.codelens.refresh()
    local ok = vim.wait(timeout, function()
      for _, lens in ipairs(vim.lsp.codelens.get(buf)) do
        if lens.range.start.line == lnum - 1 and lens.command then
          return true
        end
      end
      return false
    end, 50)
    if not ok then
      return 'no code lens with a command on "## Burn" after ' .. timeout .. ' ms: ' .. vim.inspect(vim.lsp.codelens.get(buf))
    end
    vim.lsp.codelens.run()
  end
  local qf
  local ok = vim.wait(timeout, function()
    qf = vim.fn.getqflist({ title = 1, items = 1, winid = 1 })
    return #qf.items > 0
  end, 50)
  if not ok then
    return 'running the lens on "## Burn" left the quickfix list empty (is gddls.showReferences a client command?)'
  end
  local got = {}
  for _, it in ipairs(qf.items) do
    table.insert(got, string.format('%s:%d', vim.fn.fnamemodify(vim.api.nvim_buf_get_name(it.bufnr), ':t'), it.lnum))
  end
  table.sort(got)
  local want = { '05-build-plan.md:10', 'windows.json:33' }
  if qf.title ~= '2 references' or not vim.deep_equal(got, want) then
    return string.format('the quickfix list is %q %s, want "2 references" %s', tostring(qf.title), vim.inspect(got), vim.inspect(want))
  end
  if qf.winid == 0 then
    return 'the quickfix window is not open'
  end
  vim.cmd('cclose')
  return nil
end

check_inlay_hints = function(gddls, pkg, timeout)
  local buf, client, err = open_attached(gddls, pkg, '02-mechanics.md', timeout)
  if err then
    return err
  end
  local labels
  local ok = vim.wait(timeout, function()
    if not vim.lsp.inlay_hint.is_enabled({ bufnr = buf }) then
      return false
    end
    labels = {}
    for _, h in ipairs(vim.lsp.inlay_hint.get({ bufnr = buf })) do
      local label = h.inlay_hint.label
      if type(label) == 'table' then
        local parts = {}
        for _, p in ipairs(label) do
          table.insert(parts, p.value)
        end
        label = table.concat(parts)
      end
      table.insert(labels, string.format('%d %s', h.inlay_hint.position.line + 1, label))
    end
    table.sort(labels)
    return vim.tbl_contains(labels, '3 = 5') and vim.tbl_contains(labels, '4 = 0.5')
  end, 50)
  if not ok then
    return string.format('inlay hints of 02-mechanics.md: enabled=%s, hints %s; want "= 5" after `garden.rows` and "= 0.5" after `snail.speed_tiles_per_second`',
      tostring(vim.lsp.inlay_hint.is_enabled({ bufnr = buf })), vim.inspect(labels))
  end
  return nil
end

--- The UTF-16 position of byte (0-based) in line lnum (1-based) of buf.
local function position(buf, lnum, byte)
  local line = vim.api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1]
  local utf16
  if vim.fn.has('nvim-0.11') == 1 then
    utf16 = vim.str_utfindex(line, 'utf-16', byte)
  else
    utf16 = select(2, vim.str_utfindex(line, byte))
  end
  return { line = lnum - 1, character = utf16 }
end

--- The single answer of a request to the gddls client of buf, or nil and why.
local function request(buf, method, params)
  local results, err = vim.lsp.buf_request_sync(buf, method, params, 10000)
  if not results then
    return nil, method .. ' got no answer: ' .. tostring(err)
  end
  for _, r in pairs(results) do
    if r.err then
      return nil, method .. ' failed: ' .. vim.inspect(r.err)
    end
    return r.result or {}, nil
  end
  return nil, method .. ' got an empty answer'
end

--- The hex values of buf's lines ("#RRGGBB" strings), upper-cased and sorted.
local function hex_values(buf)
  local want = {}
  for _, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    for hex in l:gmatch('"#(%x%x%x%x%x%x)"') do
      table.insert(want, '#' .. hex:upper())
    end
  end
  table.sort(want)
  return want
end

-- textDocument/documentColor on the demo's direction.json answers one color
-- per hex value, at that value; on 0.12 the client shows them
-- (vim.lsp.document_color) as highlighted extmarks.
check_colors = function(gddls, demo, timeout)
  local buf, client, err = open_attached(gddls, demo, 'direction.json', timeout)
  if err then
    return err
  end
  local want = hex_values(buf)
  if #want < 4 then
    return 'the demo\'s direction.json has too few colors: ' .. vim.inspect(want)
  end
  local result, err = request(buf, 'textDocument/documentColor', { textDocument = { uri = vim.uri_from_bufnr(buf) } })
  if not result then
    return err
  end
  local got = {}
  for _, info in ipairs(result) do
    local c = info.color
    local hex = string.format('#%02X%02X%02X', math.floor(c.red * 255 + 0.5), math.floor(c.green * 255 + 0.5), math.floor(c.blue * 255 + 0.5))
    local r = info.range
    local line = vim.api.nvim_buf_get_lines(buf, r.start.line, r.start.line + 1, false)[1] or ''
    -- The range covers the hex value (inside or with its quotes; ASCII, so
    -- UTF-16 columns are bytes).
    local text = line:sub(r.start.character + 1, r['end'].character):gsub('"', ''):upper()
    if r.start.line ~= r['end'].line or text ~= hex or c.alpha ~= 1 then
      return string.format('documentColor gave %s (alpha %s) on %q of line %d', hex, tostring(c.alpha), text, r.start.line + 1)
    end
    table.insert(got, hex)
  end
  table.sort(got)
  if not vim.deep_equal(got, want) then
    return string.format('documentColor of direction.json gave %s, want %s', vim.inspect(got), vim.inspect(want))
  end
  if vim.lsp.document_color and vim.lsp.document_color.enable then
    -- 0.12: the client asks for the colors itself (on by default) and
    -- highlights each value when the window is drawn.
    vim.lsp.document_color.enable(true, { bufnr = buf })
    local shown
    local ok = vim.wait(timeout, function()
      vim.cmd('redraw!')
      shown = 0
      for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, -1, 0, -1, { details = true })) do
        local hl = m[4] and m[4].hl_group
        if type(hl) == 'string' and hl:lower():find('color') then
          shown = shown + 1
        end
      end
      return shown == #want
    end, 50)
    if not ok then
      return string.format('vim.lsp.document_color shows %d color highlights in direction.json, want %d', shown, #want)
    end
  end
  return nil
end

-- Completion inside the link field sold_with of a demo record offers the
-- ids of the linked collection's records.
check_record_completion = function(gddls, demo, timeout)
  local buf, client, lnum, err =
    open_at_line(gddls, demo, 'collections/remedies/cooling-tonic.json', '  "sold_with": ["', timeout)
  if err then
    return err
  end
  local line = vim.api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1]
  local byte = line:find('["', 1, true) + 1 -- just after the opening quote of the id
  local result, err = request(buf, 'textDocument/completion', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = position(buf, lnum, byte),
    context = { triggerKind = 1 },
  })
  if not result then
    return err
  end
  local labels = {}
  for _, item in ipairs(result.items or result) do
    table.insert(labels, item.label)
  end
  if not vim.tbl_contains(labels, 'sleep-draught') or not vim.tbl_contains(labels, 'antidote') then
    return 'completion in sold_with of cooling-tonic.json offered ' .. vim.inspect(labels) .. ', want the record ids antidote and sleep-draught'
  end
  return nil
end

local found

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
  found = nil
  -- gddls.pullDiagnostics = false in init_options: the server keeps pushing
  -- (0.12 would otherwise pull, for open buffers only).
  local caps = vim.lsp.get_client_by_id(id).server_capabilities
  if caps.diagnosticProvider ~= nil then
    return fail('the server announced pull diagnostics: ' .. vim.inspect(caps.diagnosticProvider))
  end
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
  found = false
  for _, r in pairs(results) do
    if r.err then
      return fail('textDocument/completion failed: ' .. vim.inspect(r.err))
    end
    local items = r.result and (r.result.items or r.result) or {}
    for _, item in ipairs(items) do
      table.insert(labels, item.label)
      local text = item.insertText or (item.textEdit and item.textEdit.newText)
      if item.label == 'poison' or text == 'poison' then
        found = true
      end
    end
  end
  if not found then
    return fail(string.format('completion at %d:%d offered no "poison" item; labels: %s',
      params.position.line, params.position.character, #labels == 0 and 'none' or table.concat(labels, ', ')))
  end

  -- 3. The reference-count lens over "## Burn" runs the client command
  -- gddls.showReferences, which fills the quickfix list.
  local err3 = check_references(gddls, pkg, timeout)
  if err3 then
    return fail(err3)
  end

  -- 4. Inlay hints, where Neovim has them (0.10+): the number after a
  -- tuning-key citation.
  if vim.fn.has('nvim-0.10') == 1 then
    local err4 = check_inlay_hints(gddls, pkg, timeout)
    if err4 then
      return fail(err4)
    end
  end

  -- 5. Color swatches of direction.json and record-id completion in the demo.
  local demo = os.getenv('GDDLS_DEMO') or ''
  if demo == '' then
    return fail('GDDLS_DEMO must be set; run editors/nvim/test/run.sh PATH_TO_GDDLS')
  end
  local err5 = check_colors(gddls, demo, timeout) or check_record_completion(gddls, demo, timeout)
  if err5 then
    return fail(err5)
  end

  local report = strict.report()
  if report then
    return fail(report)
  end
  out(string.format('nvim e2e (%s): %d passed, 0 failed', mode, vim.fn.has('nvim-0.10') == 1 and 5 or 4))
  vim.cmd('qa!')
end
local ok, err = xpcall(main, debug.traceback)
if not ok then
  fail('error: ' .. tostring(err))
end
