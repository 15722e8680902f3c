-- tests/fuzz/set_values.lua: the libFuzzer driver for --set values and run
-- options as the command line gives them: the bytes are split at NUL and
-- newline into PATH=VALUE items, passed raw (no clamping: 1e300, -1e999,
-- nan, 0x10, 2^63, strings, empty values) to `lied run osc.lua --set ...`,
-- and the first item also as the value of a run option. Array sizes that
-- would really allocate (whole numbers from 10^5 to 2^32) are lowered to 3
-- (the memory limit has its own tests); anything else goes through.
local cli = require "lied.cli"
local src = os.getenv("LIED_SRC") or "."
local osc = src .. "/tests/models/osc.lua"
local opts = { "--stop", "--start", "--dt", "--interval", "--hmax", "--tol", "--clients" }
io.stderr = io.open("/dev/null", "w") or io.stderr

return function(bytes)
  local items = {}
  for a in (bytes .. "\n"):gmatch("([^%z\n]*)[%z\n]") do
    if #items >= 8 then break end
    items[#items + 1] = a
  end
  if #items == 0 then return end
  local args = { "run", osc, "--out", "none", "--stop", "0.01" }
  local first = items[1]
  local v = first:match("=(.*)$") or first
  args[#args + 1] = opts[#first % #opts + 1]
  args[#args + 1] = v
  for i = 1, #items do
    local k, val = items[i]:match("^([^=]*)=(.*)$")
    local n = val and tonumber(val)
    if n and n >= 1e5 and n < 2 ^ 32 and n == math.floor(n) then items[i] = k .. "=3" end
    args[#args + 1] = "--set"
    args[#args + 1] = items[i]
  end
  cli.main(args)
end
