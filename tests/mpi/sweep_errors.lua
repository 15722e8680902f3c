-- tests/mpi/sweep_errors.lua CASE: the error paths of lied.sweep under
-- mpirun (tests/mpi/test_mpi.sh): a failure on the rank that runs a point
-- ends every rank with that rank's message; a bad input, which every rank
-- finds alike, is reported once, by rank 0.
local lied = require "lied"
local M = dofile("examples/mass_spring.lua")
local G = dofile("tests/mpi/growth.lua")
local case = arg[1]
local run = { stop = 0.5, interval = 0.1 }
if case == "run" then -- point 3 fails while running (rank 1 of 2)
  lied.sweep(G, { bad = { 0, 0, 2 } })
elseif case == "build" then -- point 3 does not build (rank 1 of 2)
  lied.sweep(M, { m = { 1, 2, -1 }, run = run })
elseif case == "each" then -- each fails for point 3 (rank 1 of 2)
  lied.sweep(M, { k = { 1, 2, 3 }, run = run,
    each = function(_, _, i) if i == 3 then error("point 3 is bad", 0) end return i end })
elseif case == "each_value" then -- each returns what cannot be sent
  lied.sweep(M, { k = { 1, 2, 3 }, run = run, each = function(_, _, i) return i == 3 and io.stdout or i end })
elseif case == "caught" then -- caught by the script: still ends every rank
  local ok = pcall(lied.sweep, M, { m = { 1, 2, -1 }, run = run })
  print("caught", ok)
elseif case == "out" then
  lied.sweep(M, { k = { 1, 2, 3 }, run = run, out = "p.csv" })
elseif case == "nodir" then -- rank 0 cannot write the files: before any point runs
  lied.sweep(M, { k = { 1, 2, 3 }, run = run, out = arg[2] .. "/no/p%d.csv" })
elseif case == "few" then
  lied.sweep(M, { k = { 1, 2, 3 }, run = run })
elseif case == "option" then
  lied.sweep(M, { k = { 1, 2, 3 }, run = { stopp = 1 } })
else
  error("sweep_errors.lua: unknown case " .. tostring(case), 0)
end
