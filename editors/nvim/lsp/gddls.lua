-- Configuration for Neovim 0.11+:
--   vim.lsp.enable('gddls')
-- Override fields with vim.lsp.config('gddls', { cmd = { '/path/to/gddls', 'serve' } }).
-- Inlay hints are turned on as setup() does (the option inlay_hints, true
-- unless setup() said otherwise); see :help gddls-inlay-hints.
local defaults = require('gddls.defaults')
local d = defaults.options()

return {
  cmd = d.cmd,
  filetypes = d.filetypes,
  root_markers = d.root_markers,
  settings = d.settings,
  init_options = defaults.init_options(d.settings),
  commands = defaults.commands(),
  on_attach = function(client, bufnr)
    require('gddls').enable_inlay_hints(client, bufnr)
  end,
}
