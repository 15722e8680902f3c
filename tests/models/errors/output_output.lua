-- Two outputs connected together.
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "OutputOutput" {
  a = tl.Constant {}, b = tl.Constant {},
  connect = { { "a.y", "b.y" } },
}
