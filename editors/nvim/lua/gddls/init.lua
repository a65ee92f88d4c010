-- gddls client for Neovim 0.7 and later.
--
--   require('gddls').setup({ cmd = { 'gddls', 'serve' } })
--
-- starts (or reuses) one gddls client per package root for the buffers of
-- the configured filetypes. See :help gddls.
local defaults = require('gddls.defaults')

local M = {}

-- Client ids by root folder, for Neovim 0.7 where vim.lsp.start is absent.
local clients_by_root = {}

--- The options in force: the defaults until setup() is called.
M.options = defaults.options()

local uv = vim.uv or vim.loop -- vim.loop is deprecated since 0.10

local function is_windows()
  return vim.fn.has('win32') == 1
end

--- Normalizes a path: forward slashes, no trailing slash (except the root).
---@param path string
---@return string
local function normalize(path)
  if is_windows() then
    path = path:gsub('\\', '/')
  end
  if #path > 1 then
    path = path:gsub('/+$', '')
    if path == '' then
      path = '/'
    end
  end
  return path
end

--- The parent folder of path, or nil at the top of the file system.
---@param path string
---@return string|nil
local function parent(path)
  local p = vim.fn.fnamemodify(path, ':h')
  if p == path or p == '' or p == '.' then
    return nil
  end
  return p
end

--- Finds the nearest folder, from start upwards, that holds one of markers
--- (a file or a folder name). start may be a file; the search then begins
--- at the folder that holds it. Works on Neovim 0.7 (no vim.fs).
---@param start string
---@param markers string[]
---@return string|nil
function M.find_root(start, markers)
  if type(start) ~= 'string' or start == '' then
    return nil
  end
  local dir = normalize(vim.fn.fnamemodify(start, ':p'))
  local st = uv.fs_stat(dir)
  if not st or st.type ~= 'directory' then
    dir = parent(dir)
  end
  while dir do
    for _, marker in ipairs(markers) do
      local candidate = (dir == '/' and '' or dir) .. '/' .. marker
      if uv.fs_stat(candidate) then
        return dir
      end
    end
    dir = parent(dir)
  end
  return nil
end

--- Reports whether the server wants a buffer of this name and filetype:
--- every Markdown buffer, and of JSON files only adoptions
--- (contracts/<name>.json), the files of collections
--- (collections/<collection>/<name>.json) and the package JSON files.
---@param name string
---@param filetype string
---@return boolean
function M.is_package_file(name, filetype)
  if filetype ~= 'json' then
    return true
  end
  name = normalize(name)
  if name:match('/contracts/[^/]+%.json$') or name:match('^contracts/[^/]+%.json$') then
    return true
  end
  if name:match('/collections/[^/]+/[^/]+%.json$') or name:match('^collections/[^/]+/[^/]+%.json$') then
    return true
  end
  local base = vim.fn.fnamemodify(name, ':t')
  for _, f in ipairs(defaults.package_json_files) do
    if base == f then
      return true
    end
  end
  return false
end

local function copy(t)
  return vim.deepcopy(t)
end

--- Merges user options over the defaults. List options replace the default
--- list; settings are merged deeply.
---@param opts table|nil
---@return table
function M.resolve_options(opts)
  opts = opts or {}
  local types = { cmd = 'table', root_markers = 'table', filetypes = 'table', settings = 'table', inlay_hints = 'boolean' }
  for _, key in ipairs({ 'cmd', 'root_markers', 'filetypes', 'settings', 'inlay_hints' }) do
    if vim.fn.has('nvim-0.11') == 1 then
      vim.validate(key, opts[key], types[key], true)
    else
      -- The table form, deprecated since 0.11, is the only one before it.
      vim.validate({ [key] = { opts[key], types[key], true } })
    end
  end
  local d = defaults.options()
  return {
    cmd = opts.cmd and copy(opts.cmd) or d.cmd,
    root_markers = opts.root_markers and copy(opts.root_markers) or d.root_markers,
    filetypes = opts.filetypes and copy(opts.filetypes) or d.filetypes,
    settings = vim.tbl_deep_extend('force', d.settings, opts.settings or {}),
    inlay_hints = opts.inlay_hints == nil and d.inlay_hints or opts.inlay_hints,
  }
end

--- Reports whether this Neovim shows inlay hints (vim.lsp.inlay_hint, 0.10+).
---@return boolean
function M.has_inlay_hints()
  return vim.fn.has('nvim-0.10') == 1 and vim.lsp.inlay_hint ~= nil and vim.lsp.inlay_hint.enable ~= nil
end

--- Turns on inlay hints in bufnr when the option inlay_hints is on, this
--- Neovim has them and the server offers them. Returns whether it did.
---@param client table
---@param bufnr number
---@return boolean
function M.enable_inlay_hints(client, bufnr)
  if not M.options.inlay_hints or not M.has_inlay_hints() then
    return false
  end
  if not (client.server_capabilities or {}).inlayHintProvider then
    return false
  end
  vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
  return true
end

-- Calls a client method: Neovim 0.11 made them methods (client:request()),
-- before that they were plain functions (client.request()).
local function call(client, method, ...)
  if vim.fn.has('nvim-0.11') == 1 then
    return client[method](client, ...)
  end
  return client[method](...)
end

--- The client config for a root folder.
---@param root string
---@return table
function M.client_config(root)
  local o = M.options
  local config = {
    name = 'gddls',
    cmd = o.cmd,
    root_dir = root,
    init_options = defaults.init_options(o.settings),
    settings = o.settings,
    commands = defaults.commands(),
    on_attach = function(client, bufnr)
      M.enable_inlay_hints(client, bufnr)
    end,
  }
  if vim.fn.has('nvim-0.8') == 0 then
    -- Neovim 0.8+ sends settings after initialize by itself; 0.7 does not.
    config.on_init = function(client)
      if next(o.settings) then
        call(client, 'notify', 'workspace/didChangeConfiguration', { settings = o.settings })
      end
    end
  end
  return config
end

local function client_alive(id)
  local client = id and vim.lsp.get_client_by_id(id)
  return client ~= nil and not call(client, 'is_stopped')
end

--- Attaches the gddls client for the buffer's root, starting it if needed.
--- Returns the client id, or nil when the buffer is not a package file or
--- has no root.
---@param bufnr number|nil
---@return number|nil
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or not M.is_package_file(name, vim.bo[bufnr].filetype) then
    return nil
  end
  local root = M.find_root(name, M.options.root_markers)
  if not root then
    return nil
  end
  if vim.lsp.start then
    return vim.lsp.start(M.client_config(root), { bufnr = bufnr })
  end
  local id = clients_by_root[root]
  if not client_alive(id) then
    id = vim.lsp.start_client(M.client_config(root))
    if not id then
      vim.notify('gddls: could not start ' .. table.concat(M.options.cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- Reports whether a client object has stopped.
---@param client table
---@return boolean
function M.is_stopped(client)
  return call(client, 'is_stopped')
end

--- The running gddls client attached to bufnr, or nil.
---@param bufnr number
function M.client_for(bufnr)
  local clients
  if vim.lsp.get_clients then
    clients = vim.lsp.get_clients({ bufnr = bufnr, name = 'gddls' })
  else
    clients = vim.lsp.buf_get_clients(bufnr)
  end
  for _, client in pairs(clients) do
    if client.name == 'gddls' and not call(client, 'is_stopped') then
      return client
    end
  end
  return nil
end

--- Sets the options and starts attaching gddls to matching buffers, both
--- the ones already open and the ones opened later.
---@param opts table|nil
function M.setup(opts)
  M.options = M.resolve_options(opts)
  local group = vim.api.nvim_create_augroup('gddls', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.options.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
    desc = 'Attach the gddls language server',
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(M.options.filetypes, vim.bo[bufnr].filetype) then
      M.attach(bufnr)
    end
  end
end

--- Shows text in a read-only scratch buffer named title (internal; exposed
--- for tests).
---@param title string
---@param text string
---@return number
function M.show_scratch(title, text)
  local bufnr = -1
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b) == title then
      bufnr = b
    end
  end
  if bufnr == -1 then
    vim.cmd('vsplit')
    bufnr = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_win_set_buf(0, bufnr)
    vim.api.nvim_buf_set_name(bufnr, title)
  else
    local win = vim.fn.bufwinid(bufnr)
    if win == -1 then
      vim.cmd('vsplit')
      vim.api.nvim_win_set_buf(0, bufnr)
    else
      vim.api.nvim_set_current_win(win)
    end
  end
  vim.bo[bufnr].buftype = 'nofile'
  vim.bo[bufnr].bufhidden = 'hide'
  vim.bo[bufnr].swapfile = false
  vim.bo[bufnr].modifiable = true
  text = text:gsub('\r\n', '\n'):gsub('\n$', '')
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, vim.split(text, '\n', { plain = true }))
  vim.bo[bufnr].modifiable = false
  vim.bo[bufnr].modified = false
  vim.bo[bufnr].filetype = 'markdown'
  return bufnr
end

--- Asks the server for the tests of the adoption in bufnr and shows the
--- returned Markdown in a scratch buffer. on_done, if given, is called with
--- (err, scratch_bufnr) when the answer arrives.
---@param bufnr number|nil
---@param on_done function|nil
function M.render_tests(bufnr, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local function fail(msg)
    vim.notify('gddls: ' .. msg, vim.log.levels.ERROR)
    if on_done then
      on_done(msg, nil)
    end
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if not normalize(name):match('/contracts/[^/]+%.json$') or name:match('%.pack%.json$') then
    return fail('this buffer is not an adoption file (contracts/<adoption>.json)')
  end
  local client = M.client_for(bufnr)
  if not client then
    return fail('no gddls client is attached to this buffer')
  end
  local params = { command = 'gddls.renderTests', arguments = { vim.uri_from_bufnr(bufnr) } }
  call(client, 'request', 'workspace/executeCommand', params, function(err, result)
    if err then
      return fail('rendering the tests failed: ' .. (err.message or vim.inspect(err)))
    end
    if type(result) ~= 'string' then
      return fail('the server returned no Markdown text for this adoption')
    end
    local id = vim.fn.fnamemodify(name, ':t:r')
    local scratch = M.show_scratch('gddls-tests://' .. id .. '.tests.md', result)
    if on_done then
      on_done(nil, scratch)
    end
  end, bufnr)
end

return M
