-- bench/battery_build.lua: the set-up of examples/battery_pack.lua at a size
--   lied bench/battery_build.lua S P G
-- prints one line: the cells, the CPU time of lied.build (flattening, instantiation,
-- scheduling: os.clock, this process), its wall time and the instantiation and schedule
-- parts (wall, from the builder), the sparse section's unknowns and nonzeros.
local lied = require "lied"
local S, P, G = tonumber(arg[1]) or 96, tonumber(arg[2]) or 40, tonumber(arg[3]) or 8
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
local Pack = dofile(here .. "/../examples/battery_pack.lua")
local wall = function()
  local f = io.popen("date +%s.%N")
  local t = tonumber(f:read("a"))
  f:close()
  return t
end
local w0, c0 = wall(), os.clock()
local built = lied.build(Pack, { s = S, p = P, g = G })
local c1, w1 = os.clock(), wall()
local info = built:info()
print(string.format("cells %d build_cpu %.3f s build_wall %.3f s instantiate %.3f s schedule %.3f s "
  .. "sparse_unknowns %d nonzeros %d", S * P, c1 - c0, w1 - w0, info.t_instantiate, info.t_schedule,
  info.sparse_unknowns, info.sparse_nonzeros))
