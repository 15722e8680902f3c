-- A negative mass.
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "BadValue" {
  g = tl.Ground {}, j = tl.Slider { k = 1 }, b = tl.Mass { m = -2 },
  connect = { { "g.flange_b", "j.flange_a" }, { "j.flange_b", "b.flange_a" } },
}
