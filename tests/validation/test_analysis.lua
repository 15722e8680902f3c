-- Steady states, linearisation, sweeps and comparison (lied.analysis,
-- model:steady, model:linearize) against closed forms: the vessels settle
-- at the level that keeps the water, (2 + 1 + 0.5) / 3 m; a mass on a
-- spring (m = 1, k = 4) has eigenvalues +-2i, A = {{0, 1}, {-k/m, 0}},
-- B = {0, 1/m} for the force, C the spring force by s (k). Every bad input
-- is an error of kind usage naming it.
local lied = require "lied"
local T = require "tests.testing"
local A = require "lied.analysis"

local Vessels = dofile("examples/vessels.lua")
local MassSpring = dofile("examples/mass_spring.lua")
local level = 3.5 / 3

-- ---- steady states -------------------------------------------------------------
local s = lied.steady(Vessels)
for _, n in ipairs { "t1.level", "t2.level", "t3.level" } do
  T.near(s.states[n], level, 1e-8, "steady " .. n)
end
T.near(s.states["t1.m_flow"], 0, 1e-12, "no flow")
T.check(s.residual < 1e-12, "residual")
T.check(tostring(s):find("t1.level   1.16666666667", 1, true), "printed: " .. tostring(s))
-- from a transient: the same levels (the water is kept)
local s2 = lied.steady(Vessels, { at = 60 })
T.near(s2.states["t2.level"], level, 1e-8, "steady after a transient")
T.eq(s2.t, 60, "time of the analysis")
-- a fixed state: the others settle to it
local s3 = lied.steady(Vessels, { fixed = { "t1.level" } })
T.eq(s3.states["t1.level"], 2, "fixed state kept")
T.near(s3.states["t3.level"], 2, 1e-8, "others settle to the fixed level")
-- overrides
local s4 = lied.steady(Vessels, { set = { ["t3.level"] = 3.5 } })
T.near(s4.states["t1.level"], (2 + 1 + 3.5) / 3, 1e-8, "overridden start values")
-- the model is left at the steady state
local b = lied.build(Vessels)
b:steady {}
T.near((b:value("t2.level")), level, 1e-8, "model left at the steady state")

-- ---- linearisation --------------------------------------------------------------
local l = lied.linearize(MassSpring, { inputs = { "slider.F" }, outputs = { "slider.s", "spring.frame_b.fx" } })
T.eq(l.states[1], "slider.s", "state names")
T.near(l.A[1][1], 0, 1e-10, "A11"); T.near(l.A[1][2], 1, 1e-10, "A12")
T.near(l.A[2][1], -4, 1e-10, "A21"); T.near(l.A[2][2], 0, 1e-10, "A22")
T.near(l.B[1][1], 0, 1e-9, "B1"); T.near(l.B[2][1], 1, 1e-9, "B2")
T.near(l.C[1][1], 1, 1e-10, "C s by s"); T.near(l.C[2][1], 4, 1e-9, "spring force by s")
T.near(l.D[1][1], 0, 1e-10, "D")
T.near(l.eigenvalues[1][1], 0, 1e-10, "re 1"); T.near(l.eigenvalues[1][2], -2, 1e-10, "im 1")
T.near(l.eigenvalues[2][1], 0, 1e-10, "re 2"); T.near(l.eigenvalues[2][2], 2, 1e-10, "im 2")
local l9 = lied.linearize(MassSpring, { set = { k = 9, m = 4 } })
T.near(l9.eigenvalues[2][2], 1.5, 1e-10, "sqrt(k/m) with overrides")
T.check(l:csv(true):find("eigenvalue,re,im\n1,0,-2", 1, true), "csv: " .. l:csv(true))
T.check(tostring(l):find("eigenvalues: 0 - 2i, 0 + 2i", 1, true), "printed: " .. tostring(l))
local la = lied.linearize(MassSpring, { at = 0.5 })
T.check(math.abs(la.x[1] - 1.2) > 1e-3, "at = T starts from the run's states")
T.near(la.A[2][1], -4, 1e-9, "A at T")

-- ---- errors: every bad input is a usage error naming it --------------------------
local function usage(fn, pats, what) T.raises(fn, pats, what, "usage") end
usage(function() lied.steady(Vessels, { fixed = { "t9.level" } }) end, { "steady: fixed: ", "t9" }, "unknown fixed")
usage(function() lied.steady(Vessels, { fixed = { "p1.m_flow" } }) end, { "p1.m_flow is not a state" }, "fixed not a state")
usage(function() lied.steady(Vessels, { fixed = 3 }) end, { "fixed must be a name or a list" }, "fixed type")
usage(function() lied.steady(Vessels, { at = "x" }) end, { "at must be a finite number" }, "bad at")
usage(function() lied.steady(Vessels, { at = 0 / 0 }) end, { "at must be a finite number" }, "NaN at")
usage(function() lied.steady(Vessels, { at = -1 }) end, { "before the start" }, "at before start")
usage(function() lied.steady(Vessels, { tol = -1 }) end, { "tol must be a positive" }, "bad tol")
usage(function() lied.steady(Vessels, { maxit = 0 }) end, { "maxit must be" }, "bad maxit")
usage(function() lied.steady(Vessels, { fixd = {} }) end, { "unknown option 'fixd' (did you mean 'fixed'?)" }, "unknown key")
usage(function() lied.steady(Vessels, { at = 1, run = { solver = "nope" } }) end, { "nope" }, "bad run option")
usage(function() lied.linearize(MassSpring, { inputs = { "slider.Fx" } }) end, { "has no parameter 'Fx' (did you mean 'F'?)" }, "unknown input")
usage(function() lied.linearize(MassSpring, { inputs = { "nobody.F" } }) end, { "input 'nobody.F'", "no component 'nobody'" }, "unknown input component")
usage(function() lied.linearize(MassSpring, { inputs = { "slider.e" } }) end, { "vector parameter" }, "vector input")
usage(function() lied.linearize(MassSpring, { inputs = { "slider" } }) end, { "must name a parameter" }, "input without a parameter")
usage(function() lied.linearize(MassSpring, { outputs = { "slider.q" } }) end, { "outputs: ", "slider.q" }, "unknown output")
usage(function() lied.linearize(MassSpring, { at = math.huge }) end, { "at must be a finite number" }, "infinite at")
usage(function() lied.linearize(MassSpring, { eig = 1 }) end, { "eig must be a boolean" }, "bad eig")
-- beyond LIED_LINEAR_MAX states: a model error (limit), nothing evaluated
local Scaling = dofile("examples/scaling.lua")
T.raises(function() lied.linearize(Scaling, { set = { n = 1025 } }) end,
  { "4100 states; at most 4096 for dense matrices" }, "dense limit", "model")
-- a model without states
local tl = require "lied.testlib"
local Z = lied.model "Z" { c = tl.Constant { k = 3 } }
T.eq(#lied.steady(Z).names, 0, "steady without states")
local lz = lied.linearize(Z, { outputs = { "c.y" } })
T.eq(#lz.A, 0, "empty A"); T.eq(lz.y0[1], 3, "outputs at the point")
T.check(tostring(lz):find("no states", 1, true), "printed: " .. tostring(lz))
-- no steady state: a model error (a spring-less mass pushed by a constant force)
T.raises(function() lied.steady(MassSpring, { set = { k = 0, ["slider.F"] = 1 }, maxit = 50 }) end,
  { "no steady state found" }, "no steady state", "model")

-- ---- results: value, compare, expressions, sweep points ---------------------------------
local sim = lied.simulate(Vessels, { out = "none", memory = true, stop = 10 })
local r1 = sim:run()
T.check(r1:nrows() > 10, "out = none with memory = true keeps the rows")
local ts, l1 = T.column(r1, "time"), T.column(r1, "t1.level")
T.eq(lied.value(r1, "t1.level", ts[3]), l1[3], "value at an output point")
T.near(lied.value(r1, "t1.level", (ts[3] + ts[4]) / 2), (l1[3] + l1[4]) / 2, 1e-15, "value between")
usage(function() lied.value(r1, "t1.level", 1e9) end, { "outside the run" }, "value outside")
usage(function() lied.value(r1, "t1.levl", 1) end, { "t1.levl" }, "value of an unknown name")
local r2 = lied.simulate(Vessels, { out = "none", memory = true, stop = 10, set = { ["p1.L"] = 2000 } }):run()
local c = lied.compare(r1, r2)
T.check(#c == 6 and c[1].max > 0, "compare lists the variables")
T.check(c[1].max >= c[#c].max, "largest first")
T.eq(lied.compare(r1, r1)[1].max, 0, "a result equals itself")
local e = A.expression(r1, "t1.level + t2.level + t3.level")
T.near(e[#e], 3.5, 1e-9, "expression: the water is kept")
local e2, msg = A.expression(r1, "t1.levl * 2")
T.check(not e2 and msg:find("'t1.levl' was not recorded (did you mean 't1.level'?)", 1, true), "expression unknown: " .. tostring(msg))
local pts = A.points({ a = { 1, 2 }, b = { 3, 4, 5 } })
T.eq(#pts, 6, "grid points")
T.eq(#A.points({ a = { 1, 2 }, b = { 3, 4 } }, "list"), 2, "list points")
usage(function() A.points({ a = { 1, 2 }, b = { 3 } }, "list") end, { "equal length" }, "list lengths")
usage(function() A.points({ a = {} }) end, { "non-empty list" }, "empty sweep")
T.done()
