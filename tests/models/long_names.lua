-- Names of 150 and 1,100 characters, for tests of names that do not fit a
-- format width or a fixed buffer (lied vars, lied info, CSV and MAT headers).
local lied = require "lied"
local tl = require "lied.testlib"
local a = "a" .. string.rep("x", 149)
local b = "b" .. string.rep("y", 1099)
local Inner = lied.model "Inner" {
  g = tl.Ground {}, j = tl.Slider { k = 4, s = 1 }, [b] = tl.Mass { m = 1 },
  connect = { { "g.flange_b", "j.flange_a" }, { "j.flange_b", b .. ".flange_a" } },
}
return lied.model "LongNames" { [a] = Inner, [a .. "2"] = Inner, experiment = { stop = 0.1 } }
