-- A derivative that overflows to infinity at t = 0: 1e308 * 1e308.
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "Overflow" {
  c = tl.Constant { k = 1e308 }, g = tl.Gain { k = 1e308 }, i = tl.Integrator {},
  connect = { { "c.y", "g.u" }, { "g.y", "i.u" } },
  experiment = { stop = 1, dt = 0.1 },
}
