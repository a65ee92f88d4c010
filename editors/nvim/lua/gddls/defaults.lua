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
  }
end

--- The JSON files at a package root that the server reads, besides the
--- adoptions in contracts/.
M.package_json_files = {
  'tuning.json',
  'manifest.json',
  'clocks.json',
  'direction.json',
  'personalization.json',
}

return M
