-- Steps in waves (solve/wave.c) on a model of signal blocks: a discretised
-- diffusion, n integrators x[i] with der(x_i) = k (x_{i-1} - 2 x_i + x_{i+1}),
-- the left end driven by a Step at t = 0.3 (a time event, which ends a
-- block), the right end by a Constant, every third cell also reading
-- the cell three ahead (a longer link). In waves, with --no-fuse
-- (whole-vector steps), with 2 threads asked for, and in blocks of several
-- sweeps: every recorded value the same bits; the run is checked against
-- the same equations integrated here by hand (rk4) to 1e-12. Then a thermal
-- rod whose waves run in lane form: the same bits as copy by copy, and its
-- equations by hand.
local lied = require "lied"
local T = require "tests.testing"
local signals = require "lied.signals"

local function diffusion(n)
  return lied.model "Diffusion" {
    x = lied.array(signals.Integrator { k = 1 }, n, { x = function(i) return math.sin(i) end }),
    d = lied.array(signals.Add { n = 4, k1 = 50, k2 = -100, k3 = 50, k4 = 0 }, n,
      { k4 = function(i) return i % 3 == 0 and 0.5 or 0 end }),
    left = signals.Step { height = 1, t0 = 0.3 },
    right = signals.Constant { k = -0.5 },
    connect = {
      lied.each(1, n, { "d[i].y", "x[i].u" }, { "x[i].y", "d[i].u2" }),
      lied.each(2, n, { "x[i-1].y", "d[i].u1" }),
      lied.each(1, n - 1, { "x[i+1].y", "d[i].u3" }),
      lied.each(1, n - 3, { "x[i+3].y", "d[i].u4" }),
      lied.each(n - 2, n, { "right.y", "d[i].u4" }),
      { "left.y", "d[1].u1" }, { "right.y", "d[" .. n .. "].u3" },
    },
  }
end

local n = 3000
local b = lied.build(diffusion(n))
T.check(b:info().wave_gap > 0, "the diffusion is skewed and takes waves")
local opts = { solver = "rk4", stop = 0.6, dt = 1e-3, interval = 0.1, progress = false, vars = "x[*].x", threads = 1 }
local function run(extra)
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  for k, v in pairs(extra) do o[k] = v end
  local r, st = b:run(o)
  return r, st
end
local rw, sw = run {}
T.check(sw.waves > 0 and sw.fused, "the run took waves")
local rv, sv = run { fuse = false }
T.check(sv.waves == 0, "--no-fuse: whole-vector steps")
local r2 = run { threads = 2 }
local ro = run { interval = 0.6 } -- blocks of 64 steps, several sweeps each
local rov = run { interval = 0.6, fuse = false }
local same, same2, sameo, moved = true, true, true, false
T.eq(#T.column(rw, "x[1].x"), 9, "rows: every 0.1 s and both sides of the event")
for i = 1, n do
  local name = string.format("x[%d].x", i)
  local a, v, t2, o, ov = T.column(rw, name), T.column(rv, name), T.column(r2, name), T.column(ro, name), T.column(rov, name)
  for k = 1, #a do
    same = same and a[k] == v[k]
    same2 = same2 and a[k] == t2[k]
  end
  for k = 1, #o do sameo = sameo and o[k] == ov[k] end
  moved = moved or math.abs(a[#a] - a[1]) > 1e-3
end
T.check(same, "waves and whole-vector steps: the same bits")
T.check(same2, "2 threads asked for: the same bits")
T.check(sameo, "blocks of 64 steps (several sweeps): the same bits as whole-vector steps")
T.check(moved, "the cells move")

-- the same equations by hand: rk4 with the stage times' step input at its
-- left limit at the event (as lied evaluates a step that ends at t0)
local function f(t, x, dx)
  local u = t < 0.3 and 0 or 1
  for i = 1, n do
    local l = i > 1 and x[i - 1] or u
    local r = i < n and x[i + 1] or -0.5
    local f4 = 0
    if i % 3 == 0 then f4 = 0.5 * (i + 3 <= n and x[i + 3] or -0.5) end
    dx[i] = 50 * l - 100 * x[i] + 50 * r + f4
  end
end
local x, k1, k2, k3, k4, y = {}, {}, {}, {}, {}, {}
for i = 1, n do x[i] = math.sin(i) end
for k = 0, 5 do
  for j = 0, 99 do
    local t0, h = 0.1 * k + 1e-3 * j, 1e-3
    -- a step that ends at the event sees the input's left limit
    local tt = function(c) local v = t0 + c * h; if t0 < 0.3 - 1e-9 and v > 0.3 - 1e-9 then return 0 end return v end
    f(tt(0), x, k1)
    for i = 1, n do y[i] = x[i] + h * 0.5 * k1[i] end
    f(tt(0.5), y, k2)
    for i = 1, n do y[i] = x[i] + h * 0.5 * k2[i] end
    f(tt(0.5), y, k3)
    for i = 1, n do y[i] = x[i] + h * k3[i] end
    f(tt(1), y, k4)
    for i = 1, n do x[i] = x[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) end
  end
end
local worst = 0
for i = 1, n do
  local a = T.column(rw, string.format("x[%d].x", i))
  local d = math.abs(a[#a] - x[i])
  if d > worst then worst = d end
end
T.check(worst < 1e-12, string.format("against rk4 by hand: largest difference %.3g", worst))
io.stderr:write(string.format("largest difference from rk4 by hand: %.3g\n", worst))

-- steps of rk4 on y[i0 .. i1] with f(y, dy), written out here as the
-- references below need it (not lied's solver)
local function rk4_by_hand(f, y, i0, i1, h, steps)
  local q, a1, a2, a3, a4 = {}, {}, {}, {}, {}
  for _ = 1, steps do
    f(y, a1)
    for i = i0, i1 do q[i] = y[i] + h * 0.5 * a1[i] end
    f(q, a2)
    for i = i0, i1 do q[i] = y[i] + h * 0.5 * a2[i] end
    f(q, a3)
    for i = i0, i1 do q[i] = y[i] + h * a3[i] end
    f(q, a4)
    for i = i0, i1 do y[i] = y[i] + h / 6 * (a1[i] + 2 * a2[i] + 2 * a3[i] + a4[i]) end
  end
end

-- Rods run in lanes (r1) and copy by copy (r0): whether every row of
-- c[1..m].T has the same bits in both, and the largest difference of the
-- last row from y[1..m]
local function rows_alike(r1, r0, y, m)
  local same, far = true, 0
  for i = 1, m do
    local name = string.format("c[%d].T", i)
    local a, b = T.column(r1, name), T.column(r0, name)
    for k = 1, #a do same = same and a[k] == b[k] end
    far = math.max(far, math.abs(a[#a] - y[i]))
  end
  return same, far
end

-- A rod's runs in lanes (r1) and copy by copy (r0): 0.5 s of rk4 at 1 ms
local function rod_runs(rod, what)
  local o = { solver = "rk4", stop = 0.5, dt = 1e-3, interval = 0.5, progress = false, vars = "c[*].T", threads = 1 }
  local r1, s1 = rod:run(o)
  o.lanes = false
  local r0, s0 = rod:run(o)
  T.check(s1.waves > 0 and s1.lanes and not s0.lanes, what .. ": waves in lane form, and copy by copy")
  return r1, r0
end

-- The derivatives of an insulated rod of m capacitors Cap linked by
-- conductors G(i) (between i and i + 1), with heat q(i) into capacitor i
local function rod_rhs(m, G, Cap, q)
  return function(v, d)
    for i = 1, m do
      local flow = q and q(i) or 0
      if i > 1 then flow = flow + G(i - 1) * (v[i - 1] - v[i]) end
      if i < m then flow = flow + G(i) * (v[i + 1] - v[i]) end
      d[i] = flow / Cap
    end
  end
end

-- A thermal rod of 1,001 heat capacitors linked by conductors whose G
-- varies per copy (lied.thermal: every block has a lane form), its ends
-- insulated: the waves run in lane form (docs/architecture.md, "Lane groups
-- over coupled arrays"), the same bits as copy by copy (lanes = false), and
-- the temperatures those of the rod's equations integrated here (rk4) to
-- 1e-12 K.
do
  local th = require "lied.thermal"
  local m = 1001
  local Cap, G = 10, function(i) return 1 + (i % 7) * 0.3 end
  local T0 = function(i) return 300 + 50 * math.sin(i / 10) end
  local Rod = lied.model "Rod" {
    c = lied.array(th.HeatCapacitor { C = Cap }, m, { T = T0 }),
    g = lied.array(th.ThermalConductor { G = 2 }, m - 1, { G = G }),
    connect = { lied.each(1, m - 1, { "c[i].port", "g[i].port_a" }, { "c[i+1].port", "g[i].port_b" }) },
  }
  local rod = lied.build(Rod)
  local info = rod:info()
  T.check(info.wave_gap > 0 and info.lanes and info.lane_steps > 0 and info.halos > 0,
    "the rod takes waves in lane form, with halo reads (" .. tostring(info.no_lanes) .. ")")
  local r1, r0 = rod_runs(rod, "the rod")
  local y = {}
  for i = 1, m do y[i] = T0(i) end
  rk4_by_hand(rod_rhs(m, G, Cap), y, 1, m, 1e-3, 500)
  local same, far = rows_alike(r1, r0, y, m)
  local moved = false
  for i = 1, m do
    local a = T.column(r1, string.format("c[%d].T", i))
    moved = moved or math.abs(a[#a] - a[1]) > 0.01
  end
  T.check(same, "the rod: lanes and copy by copy, the same bits")
  T.check(moved, "the rod's temperatures moved")
  T.check(far < 1e-12, string.format("the rod against rk4 by hand: largest difference %.3g K", far))
end

-- The arrays' ends two ways at once: a rod of 301 capacitors heated at c[1]
-- by a PrescribedHeatFlow fed from a Pulse (high over the whole run: 45 W).
-- Its last capacitor, wired otherwise than the interior, runs copy by copy
-- as a lane piece of one copy in the rings (lanering.c, one_plan: its
-- reading pointer set in its lane for the call, the slot's pointer put back
-- after); the Pulse has no lane form and runs on the arena, its output
-- copied into the rings for the heater, which runs in lanes. The same bits
-- as copy by copy, and rk4 by hand to 1e-12 K. (Taking the pointers set
-- for the interior as the end's fails this; not putting the slot's
-- pointers back fails test_skew's chains.)
do
  local th = require "lied.thermal"
  local sig = require "lied.signals"
  local m, Cap, Q = 301, 10, 45
  local G = function(i) return 1 + (i % 7) * 0.3 end
  local T0 = function(i) return 300 + 50 * math.sin(i / 10) end
  local PulsedRod = lied.model "PulsedRod" {
    pulse = sig.Pulse { amplitude = 40, offset = 5, width = 50, period = 100, t0 = -1 },
    heat = th.PrescribedHeatFlow {},
    c = lied.array(th.HeatCapacitor { C = Cap }, m, { T = T0 }),
    g = lied.array(th.ThermalConductor { G = 2 }, m - 1, { G = G }),
    connect = {
      lied.each(1, m - 1, { "c[i].port", "g[i].port_a" }, { "c[i+1].port", "g[i].port_b" }),
      { "pulse.y", "heat.Q_flow_in" }, { "heat.port", "c[1].port" },
    },
  }
  local rod = lied.build(PulsedRod)
  local info = rod:info()
  T.check(info.lanes and info.end_steps == 2 and info.end_lanes == 1,
    string.format("the pulsed rod: two end steps, one in lanes of one copy (%s, %s)",
      tostring(info.end_steps), tostring(info.end_lanes)))
  local r1, r0 = rod_runs(rod, "the pulsed rod")
  local y = {}
  for i = 1, m do y[i] = T0(i) end
  rk4_by_hand(rod_rhs(m, G, Cap, function(i) return i == 1 and Q or 0 end), y, 1, m, 1e-3, 500)
  local same, far = rows_alike(r1, r0, y, m)
  T.check(same, "the pulsed rod: lanes and copy by copy, the same bits")
  T.check(far < 1e-12, string.format("the pulsed rod against rk4 by hand: largest difference %.3g K", far))
end

-- A rod heated at one end by a capacitor outside the arrays: conductor
-- g[i] links c[i - 1] (g[1]: the hot one) to c[i], so the conductors' lane
-- step reads another component at its first copy, which runs copy by copy
-- while the rest runs in lanes. The same bits as copy by copy, and the
-- equations by hand. (The lane rings take the pointers the scheduler found
-- regular away from the ends without reading them again, lanering.c
-- regular_run: claiming the first copy regular as well fails this.)
do
  local th = require "lied.thermal"
  local m = 1001
  local G = function(i) return 1 + (i % 7) * 0.3 end
  local T0 = function(i) return 300 + 50 * math.sin(i / 10) end
  local HotRod = lied.model "HotRod" {
    hot = th.HeatCapacitor { C = 50, T = 400 },
    c = lied.array(th.HeatCapacitor { C = 10 }, m, { T = T0 }),
    g = lied.array(th.ThermalConductor { G = 2 }, m, { G = G }),
    connect = {
      lied.each(1, m, { "c[i].port", "g[i].port_b" }),
      lied.each(2, m, { "c[i-1].port", "g[i].port_a" }),
      { "hot.port", "g[1].port_a" },
    },
  }
  local rod = lied.build(HotRod)
  local info = rod:info()
  T.check(info.wave_gap > 0 and info.lanes and info.lane_steps > 0, "the hot rod takes waves in lane form")
  local o = { solver = "rk4", stop = 0.5, dt = 1e-3, interval = 0.5, progress = false, vars = "c[*].T", threads = 1 }
  local r1, s1 = rod:run(o)
  local hot1 = rod:value("hot.T")
  o.lanes = false
  local r0 = rod:run(o)
  T.check(s1.waves > 0 and s1.lanes, "the hot rod: waves in lane form")
  T.eq(rod:value("hot.T"), hot1, "the hot capacitor: the same bits in lanes and copy by copy")
  local y = { [0] = 400 }
  for i = 1, m do y[i] = T0(i) end
  local function f(v, d)
    d[0] = -G(1) * (v[0] - v[1]) / 50
    for i = 1, m do
      local flow = G(i) * (v[i - 1] - v[i])
      if i < m then flow = flow - G(i + 1) * (v[i] - v[i + 1]) end
      d[i] = flow / 10
    end
  end
  rk4_by_hand(f, y, 0, m, 1e-3, 500)
  local same, far = rows_alike(r1, r0, y, m)
  far = math.max(far, math.abs(hot1 - y[0]))
  T.check(same, "the hot rod: lanes and copy by copy, the same bits")
  T.check(hot1 < 399, "the hot capacitor cooled: " .. hot1)
  T.check(far < 1e-11, string.format("the hot rod against rk4 by hand: largest difference %.3g K", far))
end

-- Words written by the constant part for some copies and by every
-- evaluation for the rest. The lane rings do not load what the dynamic
-- part writes in every copy before reading it (lanering.c,
-- drop_dynamic). Heat flows from c[i - 1] through sensor qs[i] and
-- conductor g[i] into c[i]; qs[1] takes its port_a from a fixed
-- temperature. So qs[1].port_b.T is computed once before the run, while
-- qs[2..m] recompute theirs in every evaluation, and g[1] reads it in lanes
-- with the rest. Lanes and copy by copy must give the same bits, the values
-- left after the run too, and both must match the equations by hand.
-- Treating the sensors' port_b.T as written in every copy fails this.
do
  local th = require "lied.thermal"
  local m, Ta = 1001, 350
  local G = function(i) return 1 + (i % 5) * 0.4 end
  local T0 = function(i) return 300 + 40 * math.cos(i / 7) end
  local Sensed = lied.model "Sensed" {
    amb = th.FixedTemperature { T = Ta },
    c = lied.array(th.HeatCapacitor { C = 10 }, m, { T = T0 }),
    qs = lied.array(th.HeatFlowSensor {}, m),
    g = lied.array(th.ThermalConductor { G = 1 }, m, { G = G }),
    connect = {
      { "amb.port", "qs[1].port_a" },
      lied.each(2, m, { "c[i-1].port", "qs[i].port_a" }),
      lied.each(1, m, { "qs[i].port_b", "g[i].port_a" }, { "g[i].port_b", "c[i].port" }),
    },
  }
  local b = lied.build(Sensed)
  local info = b:info()
  T.check(info.wave_gap > 0 and info.lanes and info.lane_steps > 0 and info.constant_blocks > 0,
    "the sensed rod takes waves in lane form, with blocks run once (" .. tostring(info.no_lanes) .. ")")
  local o = { solver = "rk4", stop = 0.4, dt = 1e-3, interval = 0.4, progress = false, vars = "c[*].T", threads = 1 }
  local r1, s1 = b:run(o)
  local after = {}
  for _, v in ipairs { "qs[1].Q_flow", "qs[2].Q_flow", "qs[500].Q_flow", "g[1].Q_flow", "g[77].Q_flow", "c[3].port.Q_flow" } do
    after[v] = b:value(v)
  end
  o.lanes = false
  local r0, s0 = b:run(o)
  T.check(s1.lanes and not s0.lanes and s1.waves > 0, "the sensed rod: lanes, and copy by copy")
  for v, x in pairs(after) do T.eq(b:value(v), x, v .. " after the run: the same bits in lanes and copy by copy") end
  local y = {}
  for i = 1, m do y[i] = T0(i) end
  local function f(v, d)
    for i = 1, m do
      local flow = G(i) * ((i == 1 and Ta or v[i - 1]) - v[i])
      if i < m then flow = flow - G(i + 1) * (v[i] - v[i + 1]) end
      d[i] = flow / 10
    end
  end
  rk4_by_hand(f, y, 1, m, 1e-3, 400)
  local same, far = rows_alike(r1, r0, y, m)
  T.check(same, "the sensed rod: lanes and copy by copy, the same bits")
  T.check(far < 1e-11, string.format("the sensed rod against rk4 by hand: largest difference %.3g K", far))
  T.near(after["qs[1].Q_flow"], G(1) * (Ta - T.column(r1, "c[1].T")[2]), 1e-9, "qs[1] measures the flow from the fixed temperature")
end

-- Spinners (a body on a revolute joint, I a = tau: a section with a
-- constant matrix) linked by springs at their pivots: the section batch
-- keeps its factors per chunk of its own copies, which do not line up with
-- the lane groups, so the waves run copy by copy and say why; phi(1) is
-- tau / (2 I) exactly (rk4 on a quadratic).
do
  local mech = require "lied.mechanics"
  local Spinner = lied.model "Spinner" {
    fixed = mech.Fixed {},
    joint = mech.Revolute { tau = 1.0 },
    body = mech.Body { m = 2.0, I = 0.25 },
    connect = { { "fixed.frame_b", "joint.frame_a" }, { "joint.frame_b", "body.frame_a" } },
  }
  local Spinners = lied.model "Spinners" {
    s = lied.array(Spinner, 1000),
    k = lied.array(mech.Spring { c = 100 }, 999),
    connect = { lied.each(1, 999, { "s[i].joint.frame_b", "k[i].frame_a" }, { "s[i+1].joint.frame_b", "k[i].frame_b" }) },
  }
  local b = lied.build(Spinners)
  local info = b:info()
  T.check(info.wave_gap > 0 and info.constant_sections > 0 and not info.lanes, "constant sections: waves copy by copy")
  T.check((info.no_lanes or ""):find("constant matrix keeps its factors per chunk", 1, true) ~= nil,
    "the reason: " .. tostring(info.no_lanes))
  local _, st = b:run { solver = "rk4", stop = 1, dt = 0.01, out = "none", memory = false, progress = false, threads = 1 }
  T.check(st.waves > 0 and not st.lanes and st.no_lanes == info.no_lanes, "the run says the same")
  T.eq(st.factorisations, 1000, "factorised once per copy")
  local worst = 0
  for i = 1, 1000 do worst = math.max(worst, math.abs(b:value(("s[%d].joint.phi"):format(i)) - 2)) end
  T.near(worst, 0, 1e-13, "phi(1) = tau / (2 I)")
end
T.done()
