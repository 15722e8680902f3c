-- tests/mpi/sweep.lua: lied.sweep under mpirun (docs/distributed.md,
-- "Sweeps"), run by tests/mpi/test_mpi.sh with one process and with 2 and 3
-- ranks, whose outputs must be the same bytes. arg[1]: the directory of the
-- result files; arg[2] (optional): "each" for final values only, "results"
-- for results kept in memory, "files" for results written by rank 0 (default
-- all three); "long" for results of 1.2 MB (each moves to rank 0 in 2
-- messages), "ranks" for the rank that ran each point. Prints on rank 0
-- only, floats as hexadecimal (every bit).
local lied = require "lied"
local dir, what = arg[1], arg[2]
-- a mass on a spring (7 points: shares of 4 and 3, or 2, 2 and 3) and the
-- bouncing ball (state events)
local M = dofile("examples/mass_spring.lua")
local Ball = dofile("examples/bouncing_ball.lua")
local mpi = lied.core.mpi()

local function final(res, point, i)
  local s = res:column("slider.s")
  return { i = i, k = point.k, m = point.m, s = s[#s], n = res:nrows(), tag = "p" .. i, ok = true }
end

if what == nil or what == "each" then
  local s = lied.sweep(M, { k = { 1, 2, 4, 8, 16, 32, 64 }, run = { stop = 2, interval = 0.1 },
    each = final })
  if s then
    for i, v in ipairs(s) do
      print(string.format("%d %s %d %s %a %a %d %s %s", i, s.labels[i], v.i, v.tag, v.k, v.s, v.n,
        tostring(v.ok), math.type(v.i)))
    end
  else
    assert(mpi.rank ~= 0, "nil on rank 0")
  end
end
if what == nil or what == "results" then
  -- grid of 2 x 3 points (mode grid), results in memory on rank 0
  local s = lied.sweep(M, { k = { 2, 8 }, m = { 0.5, 1, 3 }, set = { k = 100 },
    run = { stop = 1, interval = 0.25, vars = "slider.s,slider.v" } })
  if s then
    for i, r in ipairs(s) do
      local names = r:names()
      local units = r:units()
      io.write(i, " ", s.labels[i], " ", r:nrows(), " ", table.concat(names, ","), " ", units["slider.v"])
      for c = 0, #names do
        for _, x in ipairs(r:column(c)) do io.write(string.format(" %a", x)) end
      end
      io.write("\n")
    end
  end
end
if what == nil or what == "files" then
  -- the bouncing ball's restitution, results written by rank 0: state events
  -- in every point are fine in a sweep (separate runs)
  local s = lied.sweep(Ball, { ["ball.e"] = { 0.5, 0.6, 0.7, 0.8, 0.9 }, mode = "list",
    run = { stop = 1.5 }, out = dir .. "/ball_%02d.csv" })
  if s then
    for i, f in ipairs(s) do print(i, s.labels[i], f == s.files[i], (f:gsub(".*/", ""))) end
  end
end
if what == "long" then
  -- ensembles of 300 .. 302 growths (tests/mpi/growth.lua) recorded at 501
  -- times: 1.2 MB per result, sent in 2 messages of at most 1 MiB; rank 0
  -- writes each with res:save
  local G = dofile("tests/mpi/growth.lua")
  local s = lied.sweep(G, { n = { 300, 301, 302 }, run = { stop = 1, interval = 0.002 } })
  if s then
    for i, r in ipairs(s) do
      print(i, s.labels[i], r:nrows(), #r:names(), r:save(dir .. "/long_" .. i .. ".mat"))
    end
  end
end
if what == "ranks" then
  local s = lied.sweep(M, { k = { 1, 2, 4, 8, 16, 32, 64 }, run = { stop = 0.01 },
    each = function() return lied.core.mpi().rank end })
  if s then print(table.concat(s, " ")) end
end
