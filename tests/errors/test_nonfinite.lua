-- Numbers that are finite where the user gives them and overflow (or divide
-- by zero) where a block derives from them: each is an error naming the
-- component (and, during a run, the time), never an inf or a NaN in the
-- results (docs/robustness.md, "The error catalogue").
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"

-- ---- tables: spans, slopes and cubic slopes beyond the doubles --------------------
local function tt(rows, opts)
  local p = { table = rows }
  for k, v in pairs(opts or {}) do p[k] = v end
  return function() return lied.build(lied.model "Top" { sub = lied.model "Sub" { tt = S.TimeTable(p) } }) end
end
T.raises(tt { { 0, -1e308 }, { 1, 1e308 } },
  { "sub.tt: parameter table: ", "the slope from (x[1], y[1]) = (0, -1e+308) to (1, 1e+308) is not finite" },
  "values too far apart", "model")
T.raises(tt { { 0, 0 }, { 1e-320, 1 } }, { "sub.tt: parameter table: ", "the slope from (x[1], y[1]) = (0, 0) to (",
  "is not finite (breakpoints too close" }, "subnormal interval", "model")
T.raises(tt { { -1e308, 0 }, { 1e308, 1 } },
  { "sub.tt: parameter table: ", "the breakpoints span x[1] = -1e+308 to x[2] = 1e+308, a length beyond" },
  "span beyond the doubles", "model")
T.raises(tt({ { 0, 0 }, { 1, 1.5e308 }, { 2, 1.5e308 } }, { interpolation = "cubic" }),
  { "sub.tt: parameter table: ", "a slope of the cubic interpolation is not finite (at value 1 of 3" },
  "cubic end slope overflows", "model")
T.check(pcall(tt { { 0, 0 }, { 1, 1.5e308 }, { 2, 1.5e308 } }), "the same rows linear: every slope finite")
local function map(x1, x2, z, opts)
  local spec = { x1 = x1, x2 = x2, z = z }
  for k, v in pairs(opts or {}) do spec[k] = v end
  return function()
    return lied.build(lied.model "Top" { a = S.Ramp {}, m = S.Table2D { table = lied.table(spec) },
      connect = { { "a.y", "m.u1" }, { "a.y", "m.u2" } } })
  end
end
T.raises(map({ 0, 1e-200 }, { 0, 1e-200 }, { { 0, 1 }, { 1, 0 } }),
  { "m: parameter table: ", "the cross slope of the cell x1 = 0 to 9.9999999999999998e-201" }, "map cross slope",
  "model")
T.raises(map({ 0, 1 }, { 0, 1 }, { { 0, 0 }, { 1e308, -1e308 } }),
  { "m: parameter table: ", "the slope along x2 from z[2][1] = 1e+308 to z[2][2] = -1e+308 (x2 = 0 to 1)" }, "map slope along x2",
  "model")
T.raises(map({ 0, 1 }, { 0, 1 }, { { 0, 1e308 }, { 1e308, 1e308 } }, { interpolation = "cubic" }),
  { "m: parameter table: ", "a slope of the cubic interpolation is not finite" }, "map cubic slope", "model")

-- ---- a linear extrapolation that overflows during a run -------------------------
local Far = lied.model "Far" {
  tt = S.TimeTable { table = { { 0, 0 }, { 1, 1e308 } }, extrapolation = "linear" },
  m = S.Table2D { table = lied.table { x1 = { 0, 1 }, x2 = { 0, 1 }, z = { { 0, 1 }, { 1, 1e308 } },
                                       extrapolation = "linear" } },
  r = S.Ramp { height = 4, duration = 4 },
  connect = { { "r.y", "m.u1" }, { "r.y", "m.u2" } },
}
local res, _, err = lied.build(Far):run { stop = 4, dt = 0.5, interval = 0.5, vars = "tt.y" }
T.check(err and err:find("at t = 1.5: m: ", 1, true) and
  err:find("the linear extrapolation to x1 = 1.5 (beyond the breakpoints [0, 1]) gives inf", 1, true),
  "map extrapolated past the doubles: " .. tostring(err))
T.eq(#T.column(res, "tt.y"), 3, "the rows before the fault kept")
res, _, err = lied.build(Far, { ["r.height"] = 1 }):run { stop = 4, dt = 0.5, interval = 0.5, vars = "tt.y" }
T.check(err and err:find("at t = 2: tt: ", 1, true) and
  err:find("the linear extrapolation to x = 2 (beyond the breakpoints [0, 1]) gives inf", 1, true),
  "table extrapolated past the doubles: " .. tostring(err))
T.eq(T.column(res, "tt.y")[4], 1.5e308, "finite extrapolation before it")

-- ---- Division by zero: a fault, whatever integrates the quotient (or nothing) ----
local function division(divisor, extra)
  local def = { a = S.Constant { k = 1 }, z = divisor, d = S.Division {},
                connect = { { "a.y", "d.u1" }, { "z.y", "d.u2" } } }
  for k, v in pairs(extra or {}) do def[k] = v end
  for _, c in ipairs(def.more or {}) do def.connect[#def.connect + 1] = c end
  def.more = nil
  return lied.model "Div" { loop = lied.model "Loop" (def) }
end
for _, solver in ipairs { "rk4", "dopri45", "esdirk23" } do
  local _, _, e = lied.build(division(S.Constant { k = 0 })):run { stop = 1, solver = solver, vars = "loop.d.y" }
  T.eq(e, "at t = 0: loop.d: Division: u1 / u2 = 1 / 0 is not finite", solver .. ": a constant zero divisor")
end
-- the held sample of a quotient: a discrete state no solver checks
local _, _, e = lied.build(division(S.Ramp { offset = 1, height = -2, duration = 1 },
  { h = S.SampleHold { period = 0.25 }, more = { { "d.y", "h.u" } } })):run { stop = 1, vars = "loop.h.y" }
T.check(e and e:find("^at t = 0.5: loop.d: Division: u1 / u2 = 1 / 0 is not finite"), "a sampled quotient: " .. tostring(e))
local ok, e2 = pcall(function()
  return lied.simulate(division(S.Constant { k = 1e-300 }), { stop = 1 }):run()
end)
T.check(ok, "1 / 1e-300 is finite: " .. tostring(e2))
T.raises(function()
  local M = division(S.Constant { k = 1e-300 })
  return lied.simulate(M, { stop = 1, set = { ["loop.a.k"] = 1e10 } }):run()
end, { "at t = 0: loop.d: Division: u1 / u2 = 1e+10 / 1e-300 is not finite" }, "an overflowing quotient", "model")

-- ---- Gain, Add, Product overflowing from finite inputs: a fault, as Division's (the
-- fourth attack: the inf went on, a table holding its end value made 1 of it, exit 0) ----
for _, c in ipairs {
  { S.Gain { k = 1e10 }, { "u" }, "loop.x: Gain: k u = 1e+10 * 1e+300 is not finite" },
  { S.Add { k1 = 1e10, k2 = 1 }, { "u1", "u2" },
    "loop.x: Add: the weighted sum of finite inputs is inf (u1 = 1e+300, u2 = 1e+300)" },
  { S.Product { n = 3 }, { "u1", "u2", "u3" },
    "loop.x: Product: the product of finite inputs is inf (u1 = 1e+300, u2 = 1e+300, u3 = 1e+300)" },
} do
  local def = { a = S.Constant { k = 1e300 }, x = c[1], tb = S.Table1D { table = { { 0, 0 }, { 1, 1 } } },
                connect = { { "x.y", "tb.u" } } }
  for _, u in ipairs(c[2]) do def.connect[#def.connect + 1] = { "a.y", "x." .. u } end
  for _, solver in ipairs { "rk4", "dopri45" } do
    local _, _, e = lied.build(lied.model "Ov" { loop = lied.model "Loop" (def) }):run {
      stop = 1, solver = solver, vars = "loop.tb.y" }
    T.eq(e, "at t = 0: " .. c[3], solver .. ": " .. c[3])
  end
end
-- in lane form (fused steps over copies of a Gain feeding a heat flow): the copy named
local th = require "lied.thermal"
local Cell = lied.model "Cell" { parameters = { a = 1 }, s = S.Sine { amplitude = lied.param "a", f = 1 },
  g = S.Gain { k = 1e10 }, q = th.PrescribedHeatFlow {}, c = th.HeatCapacitor { C = 1e30, T = 300 },
  connect = { { "s.y", "g.u" }, { "g.y", "q.Q_flow_in" }, { "q.port", "c.port" } } }
local Cells = lied.model "Cells" { c = lied.array(Cell, 100, { a = function(i) return i == 37 and 1e300 or 1 end }) }
for _, lanes in ipairs { true, false } do
  local b = lied.build(Cells)
  local _, st, e = b:run { stop = 1, dt = 0.01, solver = "rk4", interval = 0.25, lanes = lanes }
  T.eq(e, "at t = 0.0050000000000000001: c[37].g: Gain: k u = 1e+10 * 3.14108e+298 is not finite",
    "Gain overflowing in copy 37, lanes " .. tostring(lanes))
  if lanes then T.check(b:info().lanes, "the copies ran in lane form") end
end
-- a sum of finite inputs that stays finite is no fault; an input already inf is not this block's
local _, _, e = lied.build(lied.model "Fine" { a = S.Constant { k = 1e308 }, b = S.Constant { k = -1e308 },
  x = S.Add {}, connect = { { "a.y", "x.u1" }, { "b.y", "x.u2" } } }):run { stop = 1, vars = "x.y" }
T.eq(e, nil, "1e308 - 1e308 is finite")

-- ---- sources and sampled blocks: a derived number beyond the doubles ----------
local function one(block, input)
  return function()
    local def = { x = block, c = S.Constant {}, connect = input and { { "c.y", "x.u" } } or {} }
    return lied.build(lied.model "Top" { sub = lied.model "Sub" (def) })
  end
end
T.raises(one(S.Sine { f = 1e308 }), { "sub.x: Sine: f = 1e+308 Hz gives an angular frequency 2 pi f beyond" },
  "Sine: 2 pi f overflows", "model")
for _, c in ipairs {
  { S.Sine { amplitude = 1e308, offset = -1e308 }, "offset = -1e+308 and amplitude = 1e+308 add up beyond" },
  { S.Step { offset = 1e308, height = 1e308 }, "offset = 1e+308 and height = 1e+308 add up beyond" },
  { S.Ramp { offset = -1e308, height = -1e308 }, "offset = -1e+308 and height = -1e+308 add up beyond" },
  { S.Pulse { amplitude = 1e308, offset = 1e308 }, "offset = 1e+308 and amplitude = 1e+308 add up beyond" },
  { require("lied.thermofluid").Step { offset = 1e308, height = 1e308 }, "offset = 1e+308 and height = 1e+308 add up" },
} do
  T.raises(one(c[1]), { "sub.x: " .. c[2] }, c[2], "model")
end
T.check(pcall(one(S.Sine { amplitude = 1e308 })), "a Sine of amplitude 1e308 builds (its values are finite)")
T.raises(one(S.DiscretePI { Ti = 1e-320 }, true),
  { "sub.x: DiscretePI: the integral's coefficients period k / Ti = inf" }, "DiscretePI Ti = 1e-320", "model")
T.raises(one(S.DiscretePI { Tt = 1e-320 }, true),
  { "sub.x: DiscretePI: the integral's coefficients period k / Ti = 0.1 and period / Tt = inf" },
  "DiscretePI Tt = 1e-320", "model")

-- ---- a flow-through cell's mass rho V beyond the doubles (M der(h) = ...: an inf
-- mass froze the cells, and the results showed M = inf, with exit 0) ------------
local tf = require "lied.thermofluid"
local tfu = require "lied.undirected"
for _, c in ipairs {
  { tfu.CounterFlowHX { V_a = 1e308 }, "V_a / N = 1e+307 m3: the cell's mass rho V = inf kg must be positive and finite" },
  { tfu.ParallelFlowHX { V_b = 1e308 }, "V_b / N = 1e+307 m3: the cell's mass rho V = inf kg" },
  { tf.Heater { V = 1e308 }, "V = 1e+308 m3: the cell's mass rho V = inf kg" },
  { tf.ConductionElement { V = 1e308 }, "V = 1e+308 m3: the cell's mass rho V = inf kg" },
  { tf.CounterFlowHX { V_b = 1e308 }, "V_b / cells = 1e+307 m3: the cell's mass rho V = inf kg" },
  { tf.CrossFlowHX { V_a = 1e308 }, "V_a / cells = 4e+306 m3: the cell's mass rho V = inf kg" },
} do
  T.raises(function() return lied.build(lied.model "Top" { sub = lied.model "Sub" { x = c[1] } }) end,
    { "sub.x: " .. c[2] }, c[2], "model")
end

-- ---- periodic events whose period is below the resolution of the run's times:
-- an error naming the block and the time (their events stopped silently: a
-- SampleHold of period 0.1 run from t = 1e16 held y_start, a Pulse and a
-- periodic TimeTable stayed at their first value) ---------------------------------
for _, c in ipairs {
  { S.SampleHold { period = 0.1 }, "SampleHold", true },
  { S.Pulse { period = 0.1 }, "Pulse" },
  { S.TimeTable { table = { { 0, 0 }, { 0.05, 1 }, { 0.1, 0 } }, extrapolation = "periodic" }, "TimeTable" },
} do
  local def = { x = c[1], s = S.Sine {}, connect = c[3] and { { "s.y", "x.u" } } or {} }
  local _, _, e = lied.build(lied.model "Late" { sub = lied.model "Sub" (def) }):run {
    start = 1e16, stop = 1.0000001e16, dt = 100, interval = 1e5, vars = "sub.x.y" }
  T.eq(e, "at t = 10000000000000000: sub.x (" .. c[2] .. "): its next time event 10000000000000000 is not after "
    .. "the current time", c[2] .. " of period 0.1 from t = 1e16")
end
local _, _, e = lied.build(lied.model "Far" { x = S.SampleHold { period = 0.1, t0 = -1e308 }, s = S.Sine {},
  connect = { { "s.y", "x.u" } } }):run { stop = 1, vars = "x.y" }
T.eq(e, "at t = 0: x (SampleHold): its next time event 0 is not after the current time",
  "a sampler whose first sample is 1e308 s before the start")
-- ---- timers whose delay is below the resolution of the time it starts at: the
-- same error (an OnDelay of 1e-300 s started at t = 0.06 never switched, an
-- OffDelay stayed true, an edge's pulse never ended: exit 0) ----------------------
for _, c in ipairs {
  { "OnDelay", "gt.y", 0 }, { "OffDelay", "gt.y", 1 }, { "RisingEdge", "gt.y", 0, "width" },
  { "FallingEdge", "gt.y", 1, "width" },
} do
  local p = { [c[4] or "delay"] = 1e-300 }
  local res, _, e = lied.build(lied.model "Tiny" { s = S.Sine { f = 0.5 },
    gt = S.GreaterThreshold { threshold = 0.2 }, x = S[c[1]](p),
    connect = { { "s.y", "gt.u" }, { "gt.y", "x.u" } } }):run {
    stop = 4, solver = "dopri45", interval = 0.5, vars = "gt.y,x.y" }
  local te = c[3] == 0 and 0.064094216848990762 or 0.93590578315102513
  T.eq(e, string.format("at t = %.17g: x (%s): its next time event %.17g is not after the current time",
    te, c[1], te), c[1] .. " of 1e-300 s")
  local time = T.column(res, "time")
  T.eq(time[#time], te, c[1] .. ": the rows end at the event")
end
-- started with the run (an input true at the start) at t = 1e16, 0.1 s
local _, _, e = lied.build(lied.model "LateTimer" { c = S.BooleanConstant { k = true },
  x = S.OnDelay { delay = 0.1 }, connect = { { "c.y", "x.u" } } }):run {
  start = 1e16, stop = 1.0000001e16, dt = 100, interval = 1e5, vars = "x.y" }
T.eq(e, "at t = 10000000000000000: x (OnDelay): its next time event 10000000000000000 is not after "
  .. "the current time", "an OnDelay of 0.1 s from t = 1e16")
-- a delay that resolves runs as before: 1e-10 s after t = 0.06
local res = lied.build(lied.model "Short" { s = S.Sine { f = 0.5 }, gt = S.GreaterThreshold { threshold = 0.2 },
  x = S.OnDelay { delay = 1e-10 }, connect = { { "s.y", "gt.u" }, { "gt.y", "x.u" } } }):run {
  stop = 1, solver = "dopri45", interval = 0.5, vars = "x.y" }
local y, time = T.column(res, "x.y"), T.column(res, "time")
T.eq(y[#y], 0, "OnDelay of 1e-10 s: false after the input fell")
local on_at
for i = 1, #y do on_at = on_at or (y[i] == 1 and time[i]) end
T.near(on_at - 1e-10, 0.06409421684899, 1e-12, "OnDelay of 1e-10 s: true 1e-10 s after its input")
T.done()
