-- bench/sweep.lua [STOP] - a sweep of 64 points that cost the same: the mass
-- on a spring (examples/mass_spring.lua, rk4, dt = 1e-3) for k = 1 .. 64 up
-- to STOP seconds (default 20), keeping each run's final position. Under
-- mpirun the 64 points split 32 + 32 (or 22 + 21 + 21, ...) over the ranks;
-- with GNU time around each rank (docs/distributed.md, "Sweeps"):
--   /usr/bin/time -f "%e s %U user" lied bench/sweep.lua 20
--   mpirun -np 2 /usr/bin/time -f "%e s %U user" lied bench/sweep.lua 20
-- Rank 0 prints the 64 final positions in hexadecimal (compare the outputs:
-- the same bits on any number of ranks).
local lied = require "lied"
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local M = dofile(here .. "/../examples/mass_spring.lua")
local stop = tonumber(arg and arg[1]) or 20
local k = {}
for i = 1, 64 do k[i] = i end
local s = lied.sweep(M, { k = k, run = { stop = stop, interval = stop / 10, threads = 1 },
  each = function(res) local c = res:column("slider.s"); return c[#c] end })
if s then
  for i, v in ipairs(s) do io.write(string.format("%s %a\n", s.labels[i], v)) end
end
