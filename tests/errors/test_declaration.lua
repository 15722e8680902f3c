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
-- a misspelt reference gets the suggestion a misspelt parameter gets (the fourth attack)
T.raises(function()
  lied.build(lied.model "Sp" { parameters = { mass = 2 }, b = tl.Mass { m = lied.param "mas" } })
end, "b.m: no model parameter 'mas' (did you mean 'mass'?)", "a misspelt reference")
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

-- a model's fields of the wrong type, at lied.model (the experiment was read
-- first: "init.lua:28: bad argument #1 to 'for iterator'"), and in the
-- overrides of a model class
T.raises(function() return lied.model "A" { experiment = 5 } end,
  { "test_declaration.lua:", "model A: experiment must be a table, got number" }, "experiment a number")
T.raises(function() return lied.model "A" { doc = {} } end,
  { "test_declaration.lua:", "model A: doc must be a string, got table" }, "doc a table")
local Small = lied.model "Small" { parameters = { k = 1 }, b = tl.Mass {} }
T.raises(function() local m = Small { experiment = 5 }; return m end,
  { "test_declaration.lua:", "model Small: experiment must be a table, got number" }, "experiment override")
T.raises(function() local m = Small(5); return m end,
  { "test_declaration.lua:", "model Small: overrides must be a table {param = value}, got number" },
  "overrides a number")

-- a parameter function's own error or wrong value names the declaration's
-- file:line, as its out-of-range value does (the C check)
local line = debug.getinfo(1, "l").currentline + 1
local function decl(v) return lied.model "Bad" { b = tl.Mass { m = v } } end
local site = "test_declaration.lua:" .. line .. ": b.m"
T.raises(function() return lied.build(decl(function() return nil end)) end,
  { site .. " must be a number, got nil" }, "parameter function returning nil")
T.raises(function() return lied.build(decl(function() return "3" end)) end,
  { site .. ' must be a number, got the string "3"' }, "parameter function returning a string")
T.raises(function() return lied.build(decl(function() error("boom", 0) end)) end,
  { site .. ": boom" }, "parameter function raising")
line = debug.getinfo(1, "l").currentline + 1
local Par = lied.model "Par" { parameters = { a = lied.param "zz" }, b = tl.Mass {} }
T.raises(function() return lied.build(lied.model "Top" { p = Par }) end,
  { "test_declaration.lua:" .. line .. ": p.a: no model parameter 'zz'" }, "a model parameter's missing reference")
line = debug.getinfo(1, "l").currentline + 1
local elem = tl.Mass {}
T.raises(function() return lied.build(lied.model "A" { x = lied.array(elem, 2, { m = function() return {} end }) }) end,
  { "test_declaration.lua:" .. line .. ": x[1]: parameter m must be a number, got table" },
  "a per-copy function returning a table")

-- exposed ports, checked where declared: the name an identifier, the target
-- "child.port" of a child of the model (a misspelt one was accepted)
line = debug.getinfo(1, "l").currentline + 2
local function ported(ports)
  return function() return lied.model "P" { c = tl.Constant {}, g = lied.array(tl.Gain {}, 2), ports = ports } end
end
for _, c in ipairs {
  { { ["a b"] = "c.y" }, "model P: port name a b is not an identifier" },
  { { o = "cc.y" }, "model P: port o = \"cc.y\": no child 'cc' (did you mean 'c'?)" },
  { { o = "c" }, "model P: port o = \"c\": the target must be \"child.port\"" },
} do
  T.raises(ported(c[1]), { "test_declaration.lua:" .. line .. ": " .. c[2] }, c[2])
end
T.check(pcall(ported { o = "c.y", i = "g[2].u" }), "ports of a child and of an array's element")

-- the experiment's run options, checked where the model is written (at a run
-- their message named no file: "run: option stop must be a number, got string")
line = debug.getinfo(1, "l").currentline + 1
local function exp(e) return function() return lied.model "E" { b = tl.Mass {}, experiment = e } end end
for _, c in ipairs {
  { { stop = "1" }, "run: option stop must be a number, got string" },
  { { stpo = 1 }, "run: unknown option 'stpo' (did you mean 'stop'?)" },
  { { dt = 0 }, "run: step size must be positive and finite, got 0" },
  { { vars = " , " }, "the variable list is empty" },
  { { solver = "rk9" }, "unknown solver 'rk9'" },
} do
  T.raises(exp(c[1]), { "test_declaration.lua:" .. line .. ": model E: experiment: " .. c[2] }, "experiment: " .. c[2], "model")
end
T.raises(function() local m = Small { experiment = { interval = -1 } }; return m end,
  { "test_declaration.lua:", "model Small: experiment: run: output interval must be positive and finite, got -1" },
  "an experiment override")
T.check(pcall(exp { stop = 2, start = 1, solver = "dopri45", tol = 1e-8, interval = "step" }), "a good experiment")
T.done()
