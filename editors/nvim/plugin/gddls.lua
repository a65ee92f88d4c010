-- Commands of the gddls client. setup() is not called here: call
-- require('gddls').setup(opts) from your config, or use lsp/gddls.lua with
-- vim.lsp.enable('gddls') on Neovim 0.11+.
if vim.g.loaded_gddls then
  return
end
vim.g.loaded_gddls = true

vim.api.nvim_create_user_command('GddlsRenderTests', function()
  require('gddls').render_tests(0)
end, { desc = 'Show the generated tests of the current contract adoption' })
