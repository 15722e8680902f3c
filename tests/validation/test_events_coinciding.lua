-- Events that fall on one instant (docs/events.md, "The order at an
-- event"): at t = 1 a Step jumps, a Pulse rises, two Hysteresis blocks
-- switch (one on the Step, one on a sampled value), and sampled blocks of
-- periods 0.1 and 0.25 take their samples; at t = 0 the same with a Step
-- at the start. Every pair of kinds coincides: time and time, time and
-- state (the jump makes a threshold cross), time and sampled, state and
-- sampled (both ways), sampled and sampled (a chain: the second reads the
-- first's value from before the sample, a register). The order defines
-- every value, so each output is integrated and compared with its closed
-- form, in every solver; the two rows at t = 1 show the switches. Then
-- zero functions crossing at one located instant (two on one signal, one
-- reading the other's output), and coinciding time events in fused steps,
-- lane form and steps in waves against closed forms and linear invariants.
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"

local solvers = { "euler", "heun", "rk3", "rk4", "beuler", "dopri45", "esdirk23" }
if pcall(function() lied.build(lied.model "C" { s = S.Constant {} }):run { solver = "cvode", stop = 1, out = "none" } end) then
  solvers[#solvers + 1] = "cvode"
end

-- ---- one instant, every pair of kinds ---------------------------------------------
-- name = {source, block, integral over [0, 1.5] (closed form), value just before t = 1, after}
local H = { uLow = 0.2, uHigh = 0.5, yLow = 0, yHigh = 1 }
local function hyst() return S.Hysteresis(H) end
local parts = {
  st = { S.Step { height = 1, t0 = 1 } },
  st0 = { S.Step { height = 1, t0 = 0 } },
  p = { S.Pulse { amplitude = 1, width = 50, period = 0.8, t0 = 0.2 } },
  -- time -> sampled: the sample at 1 reads the Step's new value
  sh = { S.SampleHold { period = 0.1 }, "st", 0.5, 0, 1 },
  -- a coarser clock on the same instant
  sq = { S.SampleHold { period = 0.25 }, "st", 0.5, 0, 1 },
  -- UnitDelay: the sample at 1 is held from 1.1
  ud = { S.UnitDelay { period = 0.1 }, "st", 0.4, 0, 0 },
  -- DiscretePI: y_j = 2 + 0.4 j at 1 + 0.1 j (e = 1, k = 2, Ti = 0.5, x = 0)
  pi = { S.DiscretePI { period = 0.1, k = 2, Ti = 0.5 }, "st", 0.1 * (5 * 2 + 0.4 * 10), 0, 2 },
  -- time -> state: the jump crosses uHigh at exactly 1
  h = { hyst(), "st", 0.5, 0, 1 },
  -- time -> state -> sampled
  sh2 = { S.SampleHold { period = 0.1 }, "h", 0.5, 0, 1 },
  -- sampled -> sampled: a register, the old value at 1, the new from 1.1
  sh3 = { S.SampleHold { period = 0.1 }, "sh", 0.4, 0, 0 },
  -- time -> sampled -> state: the sample crosses uHigh at 1
  h2 = { hyst(), "sh", 0.5, 0, 1 },
  -- the start: a Step at t = 0, a Hysteresis on it, a sampler on both
  sh0 = { S.SampleHold { period = 0.1 }, "st0", 1.5, 1, 1 },
  h0 = { hyst(), "st0", 1.5, 1, 1 },
  sh4 = { S.SampleHold { period = 0.1 }, "h0", 1.5, 1, 1 },
}
-- time and time: the Step and the Pulse's rise, added
parts.sum = { S.Add {}, nil, 0.5 + 0.8, 0, 2 }
local decl, connect, checked = {}, { { "st.y", "sum.u1" }, { "p.y", "sum.u2" } }, {}
for name, d in pairs(parts) do
  decl[name] = d[1]
  if d[3] then
    decl["i_" .. name] = S.Integrator {}
    connect[#connect + 1] = { name .. ".y", "i_" .. name .. ".u" }
    checked[#checked + 1] = name
    if d[2] then connect[#connect + 1] = { d[2] .. ".y", name .. ".u" } end
  end
end
table.sort(checked)
decl.connect = connect
local Instant = lied.model "Instant" (decl)
local built = lied.build(Instant)

for _, solver in ipairs(solvers) do
  local vars = {}
  for _, name in ipairs(checked) do
    vars[#vars + 1] = name .. ".y"
    vars[#vars + 1] = "i_" .. name .. ".y"
  end
  local res = built:run { solver = solver, dt = 0.05, tol = 1e-10, stop = 1.5, interval = 0.05,
                          vars = table.concat(vars, ",") }
  local t = res:column("time")
  local at1 -- the first of the two rows at t = 1
  for i = 1, #t - 1 do if t[i] == 1 and t[i + 1] == 1 then at1 = at1 or i end end
  T.check(at1 ~= nil, solver .. ": two rows at t = 1")
  for _, name in ipairs(checked) do
    local d = parts[name]
    local y, iy = res:column(name .. ".y"), res:column("i_" .. name .. ".y")
    T.near(iy[#iy], d[3], 1e-7, solver .. ": integral of " .. name .. " over [0, 1.5]")
    if at1 then
      T.eq(y[at1], d[4], solver .. ": " .. name .. " just before t = 1")
      T.eq(y[at1 + 1], d[5], solver .. ": " .. name .. " at t = 1, after the instant")
    end
  end
end

-- ---- other sources that jump at t = 1, each read by samplers of that instant ----------
-- a Pulse's rise (0.2 + 0.8), a staircase TimeTable's row, an OnDelay's and an
-- OffDelay's expiry (0.5 s after a Step made their input change): a
-- SampleHold and a DiscretePI (k = 2, Ti = 0.5) sampling every 0.1 s read
-- the value after the jump at t = 1 (the timers' outputs jumped only in
-- their handler and were read before it: a lagged period)
do
  local jumps = {
    -- name = {declarations, the source's output, before, after; the PI before, after}
    pulse = { { s = S.Pulse { amplitude = 1, width = 50, period = 0.8, t0 = 0.2 } }, "s.y", 0, 1, 1.6, 3.6 },
    table = { { s = S.TimeTable { table = lied.table { x = { 0, 1, 2 }, y = { 0, 1, 1 }, interpolation = "constant" } } },
              "s.y", 0, 1, 0, 2 },
    ondelay = { { st = S.Step { height = 1, t0 = 0.5 }, g = S.GreaterThreshold { threshold = 0.5 },
                  d = S.OnDelay { delay = 0.5 }, s = S.BooleanToReal {},
                  connect = { { "st.y", "g.u" }, { "g.y", "d.u" }, { "d.y", "s.u" } } }, "s.y", 0, 1, 0, 2 },
    -- input true over [0.2, 0.5): the PI sums e = 1 at 0.2 .. 0.9 (x = 1.6), y = 2 (1 + 1.4) at 0.9
    offdelay = { { st = S.Step { height = 1, t0 = 0.2 }, st2 = S.Step { height = -1, t0 = 0.5 }, a = S.Add {},
                   g = S.GreaterThreshold { threshold = 0.5 }, d = S.OffDelay { delay = 0.5 }, s = S.BooleanToReal {},
                   connect = { { "st.y", "a.u1" }, { "st2.y", "a.u2" }, { "a.y", "g.u" }, { "g.y", "d.u" },
                               { "d.y", "s.u" } } }, "s.y", 1, 0, 4.8, 3.2 },
  }
  for name, j in pairs(jumps) do
    local decl = j[1]
    decl.sh = S.SampleHold { period = 0.1 }
    decl.pi = S.DiscretePI { period = 0.1, k = 2, Ti = 0.5 }
    decl.connect = decl.connect or {}
    table.insert(decl.connect, { j[2], "sh.u" })
    table.insert(decl.connect, { j[2], "pi.u" })
    local b = lied.build(lied.model("Jump_" .. name)(decl))
    for _, solver in ipairs(solvers) do
      local res = b:run { solver = solver, dt = 0.05, tol = 1e-8, stop = 1.5, interval = 0.05, vars = "sh.y,pi.y," .. j[2] }
      local t, y, p, u = res:column("time"), res:column("sh.y"), res:column("pi.y"), res:column(j[2])
      local at1
      for i = 1, #t - 1 do if t[i] == 1 and t[i + 1] == 1 then at1 = at1 or i end end
      T.check(at1 ~= nil, name .. ", " .. solver .. ": two rows at t = 1")
      if at1 then
        T.eq(u[at1], j[3], name .. ", " .. solver .. ": the source just before t = 1")
        T.eq(u[at1 + 1], j[4], name .. ", " .. solver .. ": the source after the jump")
        T.eq(y[at1 + 1], j[4], name .. ", " .. solver .. ": the SampleHold reads the value after the jump")
        T.near(p[at1], j[5], 1e-12, name .. ", " .. solver .. ": the DiscretePI before t = 1")
        T.near(p[at1 + 1], j[6], 1e-12, name .. ", " .. solver .. ": the DiscretePI reads the value after the jump")
      end
    end
  end
end

-- ---- zero functions crossing at one located instant --------------------------------
-- two Hysteresis blocks on one sine (the same thresholds: the same located
-- time, one event) and a third reading the first's output (uHigh between
-- its levels: it switches at that instant, in the next round of handlers)
do
  local M = lied.model "States" {
    u = S.Sine { amplitude = 1, w = 1 },
    a = S.Hysteresis { uLow = -0.5, uHigh = 0.5, yLow = -1, yHigh = 1 },
    b = S.Hysteresis { uLow = -0.5, uHigh = 0.5, yLow = -2, yHigh = 2 },
    c = S.Hysteresis { uLow = -0.5, uHigh = 0.5, yLow = -3, yHigh = 3 },
    s = S.SampleHold { period = 0.1 },
    ia = S.Integrator {}, ic = S.Integrator {},
    connect = { { "u.y", "a.u" }, { "u.y", "b.u" }, { "a.y", "c.u" }, { "a.y", "ia.u" },
                { "c.y", "ic.u" }, { "c.y", "s.u" } },
  }
  local b = lied.build(M)
  -- a, b, c rise at pi/6 and fall at 7 pi/6 (sin through +-0.5)
  local rise, fall = math.pi / 6, 7 * math.pi / 6
  for _, solver in ipairs(solvers) do
    local fixed = solver == "euler" or solver == "heun" or solver == "rk3" or solver == "rk4" or solver == "beuler"
    local res = b:run { solver = solver, dt = 0.01, tol = 1e-10, stop = 4, interval = 0.05,
                        vars = "a.y,b.y,c.y" }
    local t, ya, yb, yc = res:column("time"), res:column("a.y"), res:column("b.y"), res:column("c.y")
    local sw = {}
    for i = 2, #t do
      if t[i] == t[i - 1] then
        sw[#sw + 1] = { t = t[i], a = ya[i], b = yb[i], c = yc[i], a0 = ya[i - 1], c0 = yc[i - 1] }
      end
    end
    -- the sample times at 0.1 k also give two rows; the switches are where a changes
    local switches = {}
    for _, s in ipairs(sw) do if s.a ~= s.a0 then switches[#switches + 1] = s end end
    T.eq(#switches, 2, solver .. ": a switches twice in 4 s")
    local tol = fixed and 1e-6 or 1e-7
    for k, s in ipairs(switches) do
      T.near(s.t, k == 1 and rise or fall, tol, solver .. ": switch " .. k .. " time")
      T.eq(s.b, 2 * s.a, solver .. ": b switches in the same event as a")
      T.eq(s.c, 3 * s.a, solver .. ": c (reading a) switches in the same event")
      T.eq(s.c0, -3 * s.a, solver .. ": c before the event")
    end
  end
end

-- ---- fused steps, lane form, waves: coinciding time events ------------------------
-- n copies of a heat capacitor C heated by a Step (Q0 at t = 1) and a Ramp
-- (height R over [0.5, 1]): both kink or jump at t = 1. Closed form:
-- T(t) = T0 + (R (min(t, 1) - 0.5)^2 + R (t - 1)+ + Q0 (t - 1)+) / C for t >= 0.5.
-- rk4 landing on the events integrates these piecewise polynomials exactly.
do
  local th = require "lied.thermal"
  local Heated = lied.model "Heated" {
    step = S.Step { height = 30, t0 = 1 },
    ramp = S.Ramp { height = 20, t0 = 0.5, duration = 0.5 },
    q1 = th.PrescribedHeatFlow {}, q2 = th.PrescribedHeatFlow {},
    c = th.HeatCapacitor { C = 4, T = 300 },
    connect = { { "step.y", "q1.Q_flow_in" }, { "ramp.y", "q2.Q_flow_in" },
                { "q1.port", "c.port" }, { "q2.port", "c.port" } },
  }
  local n = 70
  local Many = lied.model "Many" {
    h = lied.array(Heated, n, { ["step.height"] = function(i) return 10 + i end }),
  }
  local b = lied.build(Many)
  local function exact(i, t)
    local Q0, R = 10 + i, 20
    local e = 0
    if t > 0.5 then e = R * (math.min(t, 1) - 0.5) ^ 2 end
    if t > 1 then e = e + (R + Q0) * (t - 1) end
    return 300 + e / 4
  end
  local o = { solver = "rk4", dt = 0.03, stop = 1.6, interval = 0.2, vars = "h[*].c.T", progress = false }
  local runs = {}
  for _, v in ipairs { { "lanes" }, { "copy by copy", lanes = false }, { "whole vector", fuse = false } } do
    local oo = {}
    for k, x in pairs(o) do oo[k] = x end
    oo.lanes, oo.fuse = v.lanes, v.fuse
    local res, st = b:run(oo)
    runs[#runs + 1] = res
    if v[1] == "lanes" then T.check(st.fused and st.lanes, "fused steps in lane form") end
    local tcol, worst = res:column("time"), 0
    for i = 1, n do
      local y = res:column(string.format("h[%d].c.T", i))
      for k = 1, #tcol do worst = math.max(worst, math.abs(y[k] - exact(i, tcol[k]))) end
    end
    T.check(worst < 1e-11, string.format("%s: the closed form within %.3g K", v[1], worst))
  end
  local same = true
  for i = 1, n do
    local name = string.format("h[%d].c.T", i)
    local a, c, w = runs[1]:column(name), runs[2]:column(name), runs[3]:column(name)
    for k = 1, #a do same = same and a[k] == c[k] and a[k] == w[k] end
  end
  T.check(same, "lanes, copy by copy and whole-vector steps: the same bits")

  -- waves: a rod of m capacitors heated at one end by the Step and the
  -- Ramp added; its energy sum(C T) grows by exactly the heat put in
  local m = 400
  local Rod = lied.model "Rod" {
    step = S.Step { height = 30, t0 = 1 },
    ramp = S.Ramp { height = 20, t0 = 0.5, duration = 0.5 },
    add = S.Add {}, q = th.PrescribedHeatFlow {},
    c = lied.array(th.HeatCapacitor { C = 4 }, m, { T = function(i) return 300 + 20 * math.sin(i / 9) end }),
    g = lied.array(th.ThermalConductor { G = 3 }, m - 1),
    connect = {
      lied.each(1, m - 1, { "c[i].port", "g[i].port_a" }, { "c[i+1].port", "g[i].port_b" }),
      { "step.y", "add.u1" }, { "ramp.y", "add.u2" }, { "add.y", "q.Q_flow_in" },
      { "q.port", "c[1].port" },
    },
  }
  local rod = lied.build(Rod)
  T.check(rod:info().wave_gap > 0, "the rod takes steps in waves")
  local res, st = rod:run { solver = "rk4", dt = 0.03, stop = 1.6, interval = 0.4, vars = "c[*].T", progress = false }
  T.check(st.waves > 0, "the rod's run took waves")
  local tcol = res:column("time")
  local E0, E = 0, {}
  for k = 1, #tcol do E[k] = 0 end
  for i = 1, m do
    local y = res:column(string.format("c[%d].T", i))
    E0 = E0 + 4 * y[1]
    for k = 1, #tcol do E[k] = E[k] + 4 * y[k] end
  end
  local worst = 0
  for k = 1, #tcol do
    local t, q = tcol[k], 0
    if t > 0.5 then q = 20 * (math.min(t, 1) - 0.5) ^ 2 end
    if t > 1 then q = q + 50 * (t - 1) end
    worst = math.max(worst, math.abs(E[k] - E0 - q))
  end
  T.check(worst < 1e-7, string.format("waves: the rod's energy within %.3g J of the heat put in", worst))
end

T.done()
