-- lied tests/cli/valgrind_runs.lua [--any-status] RUN...: each RUN ("COMMAND
-- ARGS...", as given to lied: "run FILE --stop 0.01 --out none") as lied
-- would run it, one after the other in this process (tests/cli/test_valgrind.sh
-- and test_errors_cli.sh run it under valgrind: one start-up of valgrind and
-- lied for many runs, where the start-up was most of the time). Each run's
-- command goes to standard error before it starts, so a report of valgrind
-- follows the run that made it. Fails (an error naming the runs) if a run
-- exits other than 0, unless --any-status (runs that are meant to fail).
local cli = require "lied.cli"
local any = arg[1] == "--any-status"
local failed, runs = {}, 0
for i = any and 2 or 1, #arg do
  local args = {}
  for word in arg[i]:gmatch("%S+") do args[#args + 1] = word end
  io.stderr:write("== lied ", arg[i], "\n")
  local rc = cli.main(args)
  if rc ~= 0 and not any then failed[#failed + 1] = string.format("%s (exit %d)", arg[i], rc) end
  runs = runs + 1
end
if runs == 0 then error("no runs given", 0) end
if #failed > 0 then error("runs that failed: " .. table.concat(failed, "; "), 0) end
