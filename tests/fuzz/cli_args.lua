-- tests/fuzz/cli_args.lua: the libFuzzer driver for command-line parsing.
-- The bytes are split at NUL and newline into an argument vector for
-- lied.cli.main (what main.c calls). Arguments that would reach outside the
-- process are tamed first: file names ending in .lua become one of a few test
-- models, --out files go to a scratch directory, tcp: outputs are dropped,
-- --set values are clamped to |v| <= 1000 (the memory limit is tested in
-- tests/cli/test_errors_cli.sh), and the script mode (which runs gnuplot) is
-- mapped to `run`. Everything else goes through unchanged.
local cli = require "lied.cli"
local src = os.getenv("LIED_SRC") or "."
local models = { src .. "/tests/models/osc.lua", src .. "/tests/models/not_a_model.lua",
  src .. "/tests/models/syntax_error.lua", src .. "/tests/models/runtime_error.lua",
  "/nonexistent/x.lua" }
local scratch = os.tmpname()
os.remove(scratch)
local commands = { run = true, info = true, vars = true }

-- keep CLI messages out of the fuzzer's log
io.stderr = io.open("/dev/null", "w") or io.stderr

return function(bytes)
  local args = {}
  for a in (bytes .. "\n"):gmatch("([^%z\n]*)[%z\n]") do
    if #args >= 24 then break end
    args[#args + 1] = a
  end
  if #args > 0 and args[#args] == "" then args[#args] = nil end
  if #args == 0 then return end
  if not commands[args[1]] and args[1]:sub(1, 1) ~= "-" then args[1] = "run" end
  for i = 2, #args do
    local a = args[i]
    local pre = a:match("^%-%-[%w%-]+=") or ""
    if a:match("%.lua$") then
      args[i] = pre .. models[#a % #models + 1]
    elseif a:match("tcp:") then
      args[i] = pre .. "none"
    elseif a:match("%.csv$") or a:match("%.mat$") then
      args[i] = pre .. scratch .. a:sub(-4)
    end
    local k, v = args[i]:match("^(.*=)(.+)$")
    local n = v and tonumber(v)
    if n and math.abs(n) > 1000 then args[i] = k .. "1000" end
  end
  cli.main(args)
  os.remove(scratch .. ".csv")
  os.remove(scratch .. ".mat")
end
