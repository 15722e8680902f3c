-- A derivative that overflows to infinity at t = 0: 1e308 * 1e308, in the
-- integrator's own law (a Gain of 1e308 would fault first, naming itself).
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "Overflow" {
  c = tl.Constant { k = 1e308 }, i = tl.Integrator { k = 1e308 },
  connect = { { "c.y", "i.u" } },
  experiment = { stop = 1, dt = 0.1 },
}
