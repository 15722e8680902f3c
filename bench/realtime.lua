-- bench/realtime.lua: what bench/vapor_cycle.lua and bench/rhx_lanes.lua share: run a
-- model file's experiment REPEAT times on one thread with nothing recorded and print a
-- table of the runs' CPU and wall times, the simulated seconds per CPU and per wall second,
-- and their medians.
local lied = require "lied"
local M = {}

function M.median(v)
  local s = {}
  for i, x in ipairs(v) do s[i] = x end
  table.sort(s)
  return s[(#s + 1) // 2]
end

-- file: the model file, relative to bench/ (here: this script's directory); run: the run's
-- options (stop, solver, tol); title: the first line's name of it.
function M.run(here, file, run, repeat_n, title)
  local model = dofile(here .. "/" .. file)
  local built = lied.build(model)
  local opts = { out = "none", threads = 1 }
  for k, v in pairs(run) do opts[k] = v end
  local cpu, wall, st = {}, {}, nil
  for i = 1, repeat_n do
    local c0, w0 = os.clock(), lied.core.clock()
    _, st = built:run(opts)
    cpu[i] = os.clock() - c0
    wall[i] = lied.core.clock() - w0
  end
  print(string.format("%s: %g s simulated, %s tol %g, %s steps, %s evaluations, one thread", title, run.stop,
    run.solver, run.tol, tostring(st and st.steps), tostring(st and st.rhs)))
  print(string.format("%4s %10s %10s %14s %14s", "run", "cpu [s]", "wall [s]", "x real (cpu)", "x real (wall)"))
  for i = 1, repeat_n do
    print(string.format("%4d %10.4f %10.4f %14.0f %14.0f", i, cpu[i], wall[i], run.stop / cpu[i],
      run.stop / wall[i]))
  end
  print(string.format("%4s %10.4f %10.4f %14.0f %14.0f", "med", M.median(cpu), M.median(wall),
    run.stop / M.median(cpu), run.stop / M.median(wall)))
end
return M
