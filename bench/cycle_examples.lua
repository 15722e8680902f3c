-- bench/cycle_examples.lua [REPEAT] - how much faster than real time the refrigerant
-- cycle examples run: examples/heat_pump.lua (1,500 s of the R290 heat pump with its two
-- steps) and examples/transcritical_co2.lua (1,500 s of the R744 cycle with its two steps),
-- each its experiment (cvode at tol 1e-6) REPEAT times (default 7), one thread, nothing
-- recorded; a table per example of the runs' CPU and wall times, the simulated seconds per
-- CPU and per wall second, and their medians (bench/realtime.lua; bench/vapor_cycle.lua
-- does the same for examples/vapor_cycle.lua).
--   build/lied bench/cycle_examples.lua 7
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local rt = dofile(here .. "/realtime.lua")
local n = tonumber(arg and arg[1]) or 7
for _, name in ipairs { "heat_pump", "transcritical_co2" } do
  rt.run(here, "../examples/" .. name .. ".lua", { stop = 1500, solver = "cvode", tol = 1e-6 }, n,
    "examples/" .. name .. ".lua")
end
