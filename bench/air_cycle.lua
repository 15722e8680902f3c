-- bench/air_cycle.lua [REPEAT] - how much faster than real time the air
-- cycles run: examples/simple_air_cycle.lua's experiment (60 s of both
-- cycles from standstill, dopri45 at tol 1e-6) and examples/ecs_pack.lua's
-- (the 2,400 s flight, esdirk23 at tol 1e-6), each REPEAT times (default
-- 7), one thread, nothing recorded; prints per example a table of the runs'
-- CPU and wall times, the simulated seconds per CPU and per wall second, and
-- their medians.
--   build/lied bench/air_cycle.lua 7
local lied = require "lied"
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local repeat_n = tonumber(arg and arg[1]) or 7

local function median(v)
  local s = {}
  for i, x in ipairs(v) do s[i] = x end
  table.sort(s)
  return s[(#s + 1) // 2]
end

local function bench(file, stop, solver)
  local built = lied.build(dofile(here .. "/../examples/" .. file))
  local cpu, wall, st = {}, {}, nil
  for i = 1, repeat_n do
    local c0, w0 = os.clock(), lied.core.clock()
    _, st = built:run { stop = stop, solver = solver, tol = 1e-6, out = "none", threads = 1 }
    cpu[i] = os.clock() - c0
    wall[i] = lied.core.clock() - w0
  end
  print(string.format("examples/%s: %g s simulated, %s tol 1e-6, %s steps, %s evaluations, one thread",
    file, stop, solver, tostring(st and st.steps), tostring(st and st.rhs)))
  print(string.format("%4s %10s %10s %14s %14s", "run", "cpu [s]", "wall [s]", "x real (cpu)", "x real (wall)"))
  for i = 1, repeat_n do
    print(string.format("%4d %10.4f %10.4f %14.0f %14.0f", i, cpu[i], wall[i], stop / cpu[i],
      stop / wall[i]))
  end
  print(string.format("%4s %10.4f %10.4f %14.0f %14.0f", "med", median(cpu), median(wall),
    stop / median(cpu), stop / median(wall)))
end

bench("simple_air_cycle.lua", 60, "dopri45")
print()
bench("ecs_pack.lua", 2400, "esdirk23")
