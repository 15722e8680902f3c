-- A signal output connected to a mechanical flange.
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "Incompatible" {
  c = tl.Constant {}, j = tl.Slider {},
  connect = { { "c.y", "j.flange_a" } },
}
