-- A linear section with a zero coefficient: singular at run time.
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "Singular" {
  s = tl.Sine {}, x = tl.Solve { c = 0 },
  connect = { { "s.y", "x.u" } },
  experiment = { stop = 1, dt = 0.1 },
}
