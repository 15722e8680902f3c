-- tests/mpi/grid.lua: a grid of crane crabs, n rows of m = 3, for the
-- coupled arrays across ranks (docs/distributed.md): each row's carts are
-- linked by springs h[j] (inside Row), and crab j of row i to crab j of row
-- i + 1 by spring v[i].s[j] (a pattern over i and j at the top level). The
-- ranks split the rows; each row is one copy of the top-level array.
local lied = require "lied"
local mech = require "lied.mechanics"
local CraneCrab = require "cranecrab"

local Row = lied.model "Row" {
  parameters = { m = 3 },
  crab = lied.array(CraneCrab, lied.param "m"),
  h = lied.array(mech.Spring { c = 100 }, function(p) return p.m - 1 end),
  connect = {
    lied.each(1, function(p) return p.m - 1 end,
      { "crab[i].prismatic1.frame_b", "h[i].frame_a" },
      { "crab[i+1].prismatic1.frame_b", "h[i].frame_b" }),
  },
}

local Rungs = lied.model "Rungs" {
  parameters = { m = 3 },
  s = lied.array(mech.Spring { c = 50 }, lied.param "m"),
}

return lied.model "Grid" {
  parameters = { n = 5 },
  row = lied.array(Row, lied.param "n"),
  v = lied.array(Rungs, function(p) return p.n - 1 end),
  connect = {
    lied.each({ i = { 1, function(p) return p.n - 1 end }, j = { 1, 3 } },
      { "row[i].crab[j].prismatic1.frame_b", "v[i].s[j].frame_a" },
      { "row[i+1].crab[j].prismatic1.frame_b", "v[i].s[j].frame_b" }),
  },
  experiment = { stop = 0.05, dt = 1e-3, solver = "rk4" },
}
