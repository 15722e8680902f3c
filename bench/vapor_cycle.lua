-- bench/vapor_cycle.lua [REPEAT] - how much faster than real time
-- examples/vapor_cycle.lua runs: its experiment (1,500 s of the R134a cycle with its steps,
-- cvode at tol 1e-6) REPEAT times (default 7), one thread, nothing recorded; prints a table
-- of the runs' CPU and wall times, the simulated seconds per CPU and per wall second, and
-- their medians (as bench/air_cycle.lua).
--   build/lied bench/vapor_cycle.lua 7
local lied = require "lied"
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local M = dofile(here .. "/../examples/vapor_cycle.lua")
local repeat_n = tonumber(arg and arg[1]) or 7
local built = lied.build(M)
local exp = M.experiment
local cpu, wall, steps, rhs = {}, {}, nil, nil
for i = 1, repeat_n do
  local c0, w0 = os.clock(), lied.core.clock()
  local _, st = built:run { stop = exp.stop, solver = exp.solver, tol = exp.tol, out = "none", threads = 1 }
  cpu[i] = os.clock() - c0
  wall[i] = lied.core.clock() - w0
  steps, rhs = st and st.steps, st and st.rhs
end
local function median(v)
  local s = {}
  for i, x in ipairs(v) do s[i] = x end
  table.sort(s)
  return s[(#s + 1) // 2]
end
print(string.format("examples/vapor_cycle.lua: %g s simulated, %s tol %g, %s steps, %s evaluations, one thread",
  exp.stop, exp.solver, exp.tol, tostring(steps), tostring(rhs)))
print(string.format("%4s %10s %10s %14s %14s", "run", "cpu [s]", "wall [s]", "x real (cpu)", "x real (wall)"))
for i = 1, repeat_n do
  print(string.format("%4d %10.4f %10.4f %14.0f %14.0f", i, cpu[i], wall[i], exp.stop / cpu[i],
    exp.stop / wall[i]))
end
print(string.format("%4s %10.4f %10.4f %14.0f %14.0f", "med", median(cpu), median(wall),
  exp.stop / median(cpu), exp.stop / median(wall)))
