-- A required input left unconnected.
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "Unconnected" {
  g = tl.Gain {}, i = tl.Integrator {},
  connect = { { "g.y", "i.u" } },
}
