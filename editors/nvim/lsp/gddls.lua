-- Configuration for Neovim 0.11+:
--   vim.lsp.enable('gddls')
-- Override fields with vim.lsp.config('gddls', { cmd = { '/path/to/gddls', 'serve' } }).
local d = require('gddls.defaults').options()

return {
  cmd = d.cmd,
  filetypes = d.filetypes,
  root_markers = d.root_markers,
  settings = d.settings,
  init_options = d.settings,
}
