-- bench/air_cycle.lua [REPEAT] - how much faster than real time
-- examples/simple_air_cycle.lua runs: its experiment (60 s of both cycles
-- from standstill, dopri45 at tol 1e-6) REPEAT times (default 7), one
-- thread, nothing recorded; prints a table of the runs' CPU and wall times,
-- the simulated seconds per CPU and per wall second, and their medians
-- (bench/realtime.lua).
--   build/lied bench/air_cycle.lua 7
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local rt = dofile(here .. "/realtime.lua")
rt.run(here, "../examples/simple_air_cycle.lua", { stop = 60, solver = "dopri45", tol = 1e-6 },
  tonumber(arg and arg[1]) or 7, "examples/simple_air_cycle.lua")
