-- One input fed by two outputs.
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "InputTwice" {
  a = tl.Constant {}, b = tl.Constant {}, g = tl.Gain {},
  connect = { { "a.y", "g.u" }, { "b.y", "g.u" } },
}
