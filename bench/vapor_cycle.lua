-- bench/vapor_cycle.lua [REPEAT] - how much faster than real time
-- examples/vapor_cycle.lua runs: its experiment (1,500 s of the R134a cycle with its steps,
-- cvode at tol 1e-6) REPEAT times (default 7), one thread, nothing recorded; prints a table
-- of the runs' CPU and wall times, the simulated seconds per CPU and per wall second, and
-- their medians (bench/realtime.lua).
--   build/lied bench/vapor_cycle.lua 7
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local rt = dofile(here .. "/realtime.lua")
rt.run(here, "../examples/vapor_cycle.lua", { stop = 1500, solver = "cvode", tol = 1e-6 },
  tonumber(arg and arg[1]) or 7, "examples/vapor_cycle.lua")
