-- Records every call of vim.deprecate, so that a test can fail when the
-- plugin (or a test) uses a function that this Neovim version deprecates.
-- Neovim decides by itself whether to show a warning; this records each
-- call, shown or not. Load it first: dofile(.../test/strict.lua).
local M = { calls = {} }

local orig = vim.deprecate
if orig then
  vim.deprecate = function(name, alternative, version, plugin, backtrace)
    table.insert(M.calls, string.format('%s (use %s instead; deprecated for %s)\n%s',
      tostring(name), tostring(alternative), tostring(version), debug.traceback('', 2)))
    return orig(name, alternative, version, plugin, backtrace)
  end
end

--- A description of the deprecated calls so far, or nil when there was none.
function M.report()
  if #M.calls == 0 then
    return nil
  end
  return #M.calls .. ' deprecated call(s):\n' .. table.concat(M.calls, '\n')
end

return M
