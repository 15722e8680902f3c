-- A 1-D oscillator (ground - spring joint - mass), for CLI tests.
local lied = require "lied"
local tl = require "lied.testlib"
local Osc = lied.model "Osc" {
  parameters = { k = 4, n = 2 },
  g = tl.Ground {},
  j = tl.Slider { k = lied.param "k", s = 1 },
  b = tl.Mass { m = 1 },
  extra = lied.array(tl.Constant { k = 3 }, lied.param "n"),
  connect = { { "g.flange_b", "j.flange_a" }, { "j.flange_b", "b.flange_a" } },
  experiment = { stop = 1, dt = 0.01, interval = 0.25 },
}
lied.main(Osc, { plot = { "j.s" } })
return Osc
