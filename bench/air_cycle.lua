-- bench/air_cycle.lua [REPEAT] - how much faster than real time
-- examples/simple_air_cycle.lua runs: its experiment (60 s of both cycles
-- from standstill, dopri45 at tol 1e-6) REPEAT times (default 7), one
-- thread, nothing recorded; prints a table of the runs' CPU and wall times,
-- the simulated seconds per CPU and per wall second, and their medians.
--   build/lied bench/air_cycle.lua 7
local lied = require "lied"
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local M = dofile(here .. "/../examples/simple_air_cycle.lua")
local repeat_n = tonumber(arg and arg[1]) or 7
local built = lied.build(M)
local stop = 60
local cpu, wall, steps = {}, {}, nil
for i = 1, repeat_n do
  local c0, w0 = os.clock(), lied.core.clock()
  local _, st = built:run { stop = stop, solver = "dopri45", tol = 1e-6, out = "none", threads = 1 }
  cpu[i] = os.clock() - c0
  wall[i] = lied.core.clock() - w0
  steps = st and st.steps
end
local function median(v)
  local s = {}
  for i, x in ipairs(v) do s[i] = x end
  table.sort(s)
  return s[(#s + 1) // 2]
end
print(string.format("examples/simple_air_cycle.lua: %g s simulated, dopri45 tol 1e-6, %s steps, one thread",
  stop, tostring(steps)))
print(string.format("%4s %10s %10s %14s %14s", "run", "cpu [s]", "wall [s]", "x real (cpu)", "x real (wall)"))
for i = 1, repeat_n do
  print(string.format("%4d %10.4f %10.4f %14.0f %14.0f", i, cpu[i], wall[i], stop / cpu[i],
    stop / wall[i]))
end
print(string.format("%4s %10.4f %10.4f %14.0f %14.0f", "med", median(cpu), median(wall),
  stop / median(cpu), stop / median(wall)))
