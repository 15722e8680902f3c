-- A loop of algebraic blocks with no tearing variable.
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "Loop" {
  c = tl.Constant { k = 1 }, add = tl.Add {}, gain = tl.Gain { k = 0.5 },
  connect = { { "c.y", "add.u1" }, { "add.y", "gain.u" }, { "gain.y", "add.u2" } },
}
