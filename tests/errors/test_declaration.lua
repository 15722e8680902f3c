-- Bad declarations: every mistake in a model table gets a clear message
-- naming the component (and the file:line where it was declared).
local lied = require "lied"
local tl = require "lied.testlib"
local T = require "tests.testing"

local function build(def)
  return function() return lied.build(lied.model "Bad"(def)) end
end

T.raises(build { b = tl.Mass { m = -1 } }, { "test_declaration.lua:", "b: parameter m = -1 [kg] must be > 0" },
  "negative mass")
T.raises(build { b = tl.Mass { m = 0 } }, "must be > 0", "zero mass")
T.raises(build { j = tl.Slider { k = -3 } }, "parameter k = -3 [N/m] must be >= 0", "negative stiffness")
T.raises(build { b = tl.Mass { mass = 1 } }, { "Mass has no parameter 'mass'", "did you mean 'm'" },
  "unknown parameter")
T.raises(build { b = tl.Mass { m = "heavy" } }, 'b.m must be a number, got the string "heavy"', "string parameter")
T.raises(build { b = tl.Mass { m = 0 / 0 } }, "must be finite", "NaN parameter")
T.raises(build { b = tl.Mass { m = lied.param "zz" } }, "b.m: no model parameter 'zz'", "missing reference")
T.raises(build { b = tl.Mass { m = function() error("boom") end } }, { "b.m:", "boom" },
  "failing parameter function")
T.raises(function()
  return lied.build(lied.model "A" { x = lied.array(tl.Mass {}, 2.5) })
end, "lied.array: array size must be a whole number, got 2.5", "fractional array size")
T.raises(function()
  return lied.build(lied.model "A" { x = lied.array(tl.Mass {}, -1) })
end, "array size must be >= 0", "negative array size")
T.raises(function() return lied.model "A" { x = 3 } end, "child x is number, not a component",
  "a number as child")
T.raises(function() return lied.model "A" { connect = { { "a" } } } end,
  "connect[1] must be {\"a.port\", \"b.port\"}", "malformed connect")
T.raises(function() return lied.model "A" (5) end, "expects a table", "model of a number")
T.raises(function() return lied.model(5) end, "expects a name", "model without name")
T.raises(function() return tl.Mass(5) end, "expects a table of parameters", "class called badly")
T.raises(function() return lied.array(42, 3) end, "lied.array expects a component or model class",
  "array of a number")
T.raises(function() lied.build(42) end, "expected a model", "build a number")
T.done()
