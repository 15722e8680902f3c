-- A misspelt port (g.uu for g.u).
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "UnknownPort" {
  c = tl.Constant {}, g = tl.Gain {},
  connect = { { "c.y", "g.uu" } },
}
