-- Component libraries compiled separately (plugins): examples/ext/duffing.c
-- built as duffing.so (LIED_PATH points at it) loads with require, its
-- classes work as the built-in ones (scheduling, lane forms, fused steps,
-- names, units, parameter ranges, init errors), and its Lua composites
-- (examples/ext/duffing_models.lua) use it. Libraries built against another
-- lied version, or reusing a library's name, are refused with a message.
-- A plugin class takes a table parameter (tests/plugins/tabled.c).
local lied = require "lied"
local T = require "tests.testing"

local duffing = require "duffing"
T.eq(tostring(duffing.Oscillator), "duffing.Oscillator (component class)", "the class")
T.eq(lied.library("duffing"), duffing, "require and lied.library give the same table")
T.check(lied.core.libraries().duffing, "registered: lied.core.libraries lists it")
T.eq(require("duffing"), duffing, "loaded once")
T.raises(function() return duffing.Oscilator end, "did you mean 'Oscillator'", "misspelt class")

-- a model of the plugin's class, checked against a hand-written RK4
local M = lied.model "One" {
  osc = duffing.Oscillator { m = 2, d = 0.1, k = 1, k3 = 4, x = 0.5 },
  experiment = { stop = 1, dt = 1e-3 },
}
local b = lied.build(M)
local res = b:run { stop = 1, dt = 1e-3, solver = "rk4", vars = "osc.*" }
local function f(x, v) return v, (-0.1 * v - x - 4 * x ^ 3) / 2 end
local x, v, h = 0.5, 0, 1e-3
for _ = 1, 1000 do
  local k1x, k1v = f(x, v)
  local k2x, k2v = f(x + h / 2 * k1x, v + h / 2 * k1v)
  local k3x, k3v = f(x + h / 2 * k2x, v + h / 2 * k2v)
  local k4x, k4v = f(x + h * k3x, v + h * k3v)
  x, v = x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x), v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
end
local xs = T.column(res, "osc.x")
T.near(xs[#xs], x, 1e-12, "x(1) as a hand-written RK4")
T.eq(res:units()["osc.x"], "m", "units from the plugin")
local names = {}
for _, vv in ipairs(b:vars()) do names[vv.name] = vv.kind end
T.check(names["osc.v"] == "state" and names["osc.der(v)"] == "derivative" and names["osc.y"] == "port", "names: states, derivatives, ports")

-- many copies: fused steps in the plugin's lane forms, the same bits as copy by copy
local models = require "duffing_models"
local Many = lied.model "Many" { parameters = { n = 1 }, unit = lied.array(models.Forced, lied.param "n") }
local bm = lied.build(Many, { n = 64 })
local info = bm:info()
T.check(info.chunked and info.lanes, "lane forms of the plugin's blocks are used")
local r1, s1 = bm:run { stop = 0.5, dt = 1e-3, vars = "unit[64].osc.x" }
T.check(s1.fused and s1.lanes, "fused steps in lane form")
local r2 = lied.build(Many, { n = 64 }):run { stop = 0.5, dt = 1e-3, vars = "unit[64].osc.x", lanes = false }
local c1, c2 = T.column(r1, "unit[64].osc.x"), T.column(r2, "unit[64].osc.x")
T.eq(c1[#c1], c2[#c2], "lanes and copy by copy give the same bits")

-- errors name the component path, as for built-in classes
T.raises(function() lied.build(lied.model "Bad" { o = duffing.Oscillator { m = 0 } }) end,
  { "o", "m" }, "a parameter out of range")
T.raises(function() lied.build(lied.model "NoSpring" { o = duffing.Oscillator { k = 0 } }) end,
  { "o", "no spring" }, "the plugin's init error")

-- refused libraries
T.raises(function() require "badversion" end,
  { "built against lied 0.0.1", "this is lied " .. lied.version, "rebuild" }, "another version")
package.cpath = os.getenv("LIED_PLUGIN_DUP") .. "/?.so;" .. package.cpath
T.raises(function() require "mechanics" end, { "mechanics", "already loaded" }, "a second library of a name")
T.check(lied.library("mechanics").Body, "the built-in library is still there")

-- a plugin component with a table parameter (lied/table.h), its init reading
-- the table, its block looking it up
do
  local tabled = require "tabled"
  local S = require "lied.signals"
  local f = lied.table { x = { 0, 1, 2 }, y = { 0, 10, 40 } }
  local M = lied.model "Curve" { c = S.Constant { k = 1.5 }, p = tabled.Curve { f = f, k = 2 },
                                 connect = { { "c.y", "p.u" } } }
  local b = lied.build(M)
  b:derivatives(0)
  T.eq(b:value("p.y"), 2 * 25, "a plugin's table lookup")
  T.raises(function() lied.build(lied.model "One" { c = S.Constant {}, p = tabled.Curve { f = lied.table { x = { 0 }, y = { 1 } } },
    connect = { { "c.y", "p.u" } } }) end, { "p: Curve: the table ", "needs at least 2 points" }, "a plugin's init reads the table")
  T.raises(function() lied.build(lied.model "None" { c = S.Constant {}, p = tabled.Curve {}, connect = { { "c.y", "p.u" } } }) end,
    { "p: parameter f: no table given (f = lied.table {...})" }, "a plugin's table parameter is required")
end
T.done()
