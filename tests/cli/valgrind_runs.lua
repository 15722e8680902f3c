-- lied tests/cli/valgrind_runs.lua RUN...: each RUN ("FILE --opt value ...")
-- as `lied run RUN --out none` would, one after the other in this process
-- (tests/cli/test_valgrind.sh runs it under valgrind: one start-up of
-- valgrind and lied for many models, where the start-up was most of the
-- time). Each run's name goes to standard error before it starts, so a
-- report of valgrind follows the name of the run that made it. Fails (an
-- error naming the runs) if any run exits other than 0.
local cli = require "lied.cli"
local failed = {}
for _, run in ipairs(arg) do
  local args = { "run" }
  for word in run:gmatch("%S+") do args[#args + 1] = word end
  args[#args + 1], args[#args + 2] = "--out", "none"
  io.stderr:write("== lied ", table.concat(args, " "), "\n")
  local rc = cli.main(args)
  if rc ~= 0 then failed[#failed + 1] = string.format("%s (exit %d)", run, rc) end
end
if #arg == 0 then error("no runs given", 0) end
if #failed > 0 then error("runs that failed: " .. table.concat(failed, "; "), 0) end
