-- Every structural error is reported with the component paths involved.
local lied = require "lied"
local tl = require "lied.testlib"
local T = require "tests.testing"

local function build(def, name)
  return function() return lied.build(lied.model(name or "Bad")(def)) end
end

-- algebraic loop without tearing: add -> gain -> add
T.raises(build {
  c = tl.Constant { k = 1 }, add = tl.Add {}, gain = tl.Gain { k = 0.5 },
  connect = { { "c.y", "add.u1" }, { "add.y", "gain.u" }, { "gain.y", "add.u2" } },
}, { "algebraic loop without tearing", "add (Add.add)", "gain (Gain.gain)" }, "algebraic loop")

-- a residual that does not depend on its tearing variable
T.raises(build {
  c = tl.Constant {}, bad = tl.BadResidual {}, connect = { { "c.y", "bad.u" } },
}, { "bad: residual res does not depend on the tearing variables", "BadResidual" },
  "independent residual")

-- tearing count mismatch: z2 is declared but nothing reads it
T.raises(build {
  c = tl.Constant {}, bad = tl.UnreadTear {}, connect = { { "c.y", "bad.u" } },
}, { "tearing count mismatch", "bad.z2" }, "unread tearing variable")

-- unconnected required input
T.raises(build { g = tl.Gain {} }, { "unconnected input: g.u" }, "unconnected input")

-- output connected to output
T.raises(build {
  a = tl.Constant {}, b = tl.Constant {}, connect = { { "a.y", "b.y" } },
}, { "cannot connect a.y to b.y", "both are output ports" }, "output to output")

-- input connected to input
T.raises(build {
  a = tl.Gain {}, b = tl.Gain {}, c = tl.Constant {},
  connect = { { "a.u", "b.u" }, { "c.y", "a.u" } },
}, { "cannot connect a.u to b.u", "both are input ports" }, "input to input")

-- input connected twice
T.raises(build {
  a = tl.Constant {}, b = tl.Constant {}, g = tl.Gain {},
  connect = { { "a.y", "g.u" }, { "b.y", "g.u" } },
}, { "input connected twice: g.u is fed by a.y and b.y" }, "input connected twice")

-- incompatible port types
T.raises(build {
  c = tl.Constant {}, j = tl.Slider {}, connect = { { "c.y", "j.flange_a" } },
}, { "incompatible ports", "c.y is real", "j.flange_a is flange1d" }, "incompatible ports")

-- unknown port, with a suggestion, and the declaration site
T.raises(build {
  c = tl.Constant {}, g = tl.Gain {}, connect = { { "c.y", "g.uu" } },
}, { "Gain has no port 'uu'", "did you mean 'u'", "test_structural.lua:" }, "unknown port")

-- unknown component in a connection
T.raises(build {
  c = tl.Constant {}, g = tl.Gain {}, connect = { { "c.y", "gg.u" } },
}, { "no component 'gg'", "did you mean 'g'" }, "unknown component")

-- a component where a port is expected
T.raises(build {
  c = tl.Constant {}, g = tl.Gain {}, connect = { { "c.y", "g" } },
}, { "'g' is a component, not a port" }, "component instead of port")

-- singular linear section: names the tearing variable and the time
local sing = lied.build(lied.model "Sing" {
  s = tl.Sine {}, x = tl.Solve { c = 0 }, connect = { { "s.y", "x.u" } },
})
local res, stats, err = sing:run { stop = 1, dt = 0.1 }
T.check(err and err:find("at t = 0: singular linear section", 1, true), "singular: " .. tostring(err))
T.check(err and err:find("tearing variables: x.z", 1, true), "singular names x.z")
T.check(res ~= nil, "partial result kept")

-- the same section with c = 2 solves y = u / 2
local ok = lied.build(lied.model "Ok" {
  s = tl.Sine { A = 3 }, x = tl.Solve { c = 2 }, connect = { { "s.y", "x.u" } },
})
local r2 = ok:run { stop = 1, dt = 0.1, interval = 0.5, vars = "x.y" }
T.near(T.column(r2, "x.y")[3], 1.5 * math.sin(1), 1e-14, "1x1 section value")
T.done()
