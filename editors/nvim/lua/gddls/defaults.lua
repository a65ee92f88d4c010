-- Default options of the gddls client, shared by require('gddls').setup()
-- and lsp/gddls.lua. Each call returns fresh tables, so callers may modify
-- the result.
local M = {}

--- The default options.
---@return table
function M.options()
  return {
    cmd = { 'gddls', 'serve' },
    root_markers = { 'tuning.json', 'manifest.json', 'contracts', '.git' },
    filetypes = { 'json', 'markdown' },
    settings = { gddls = { diagnosticsDelay = 50 } },
    inlay_hints = true,
  }
end

--- The initialization options for settings: the settings, and
--- gddls.pullDiagnostics = false unless they set it. Neovim 0.12 declares
--- pull diagnostics but pulls only for open buffers; with push, the
--- diagnostics of files that are not open stay in vim.diagnostic.
---@param settings table
---@return table
function M.init_options(settings)
  return vim.tbl_deep_extend('force', { gddls = { pullDiagnostics = false } }, settings or {})
end

--- The command of the reference-count code lenses ("3 references" over a
--- heading or a tuning key). Its arguments are those of VS Code's
--- editor.action.showReferences: the file URI, the lens position and the
--- reference locations. The server does not execute it; the client fills
--- the quickfix list with the locations and opens it.
M.show_references_command = 'gddls.showReferences'

--- Runs gddls.showReferences: a client command (config.commands).
---@param command table the lsp.Command of the lens
---@param ctx table|nil the handler context (bufnr, client_id)
function M.show_references(command, ctx)
  local locations = command.arguments and command.arguments[3]
  if type(locations) ~= 'table' then
    vim.notify('gddls: ' .. M.show_references_command .. ' takes a URI, a position and a list of locations',
      vim.log.levels.ERROR)
    return
  end
  -- The server speaks UTF-16 (the default position encoding of the protocol).
  local items = vim.lsp.util.locations_to_items(locations, 'utf-16')
  vim.fn.setqflist({}, ' ', { title = command.title or 'gddls references', items = items })
  if #items > 0 then
    vim.cmd('botright copen')
  else
    vim.notify('gddls: no references')
  end
end

--- The client commands of the gddls client config (config.commands).
---@return table
function M.commands()
  return { [M.show_references_command] = M.show_references }
end

--- The JSON files that the server reads by their name, besides the
--- adoptions in contracts/ and the files of collections/: those at a
--- package root, and build records.
M.package_json_files = {
  'tuning.json',
  'manifest.json',
  'clocks.json',
  'direction.json',
  'personalization.json',
  'opengdd-build.json',
}

return M
