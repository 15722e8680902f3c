-- Validation of the thermofluid components against hand-computed values:
-- steady flows through each resistance law (forwards and backwards), the
-- initial flow derivatives of a splitter feeding three sinks, junction mixing,
-- and a gas volume between two reservoirs.
local lied = require "lied"
local tf = require "lied.thermofluid"
local T = require "tests.testing"

local water = tf.liquid { rho = 1000, beta = 0 }

local function last(res, name)
  local c = assert(T.column(res, name))
  return c[#c]
end

-- ---- source -> resistance -> sink: the analytic steady flow ---------------
local function line(drop, p_src, p_snk)
  return lied.model "Line" {
    src = tf.Source { p0 = p_src, medium = water },
    drop = drop,
    snk = tf.Sink { p0 = p_snk, medium = water },
    connect = { { "src.outlet", "drop.inlet" }, { "drop.outlet", "snk.inlet" } },
    experiment = { stop = 5, dt = 1e-3, solver = "rk4", vars = "drop.m_flow,src.m_flow,snk.m_flow" },
  }
end

-- PressureDrop: 0.5*dp_ref*(u + u|u|) = dp with dp_ref = 1e4 and dp = 3e4 gives
-- u = (-1 + sqrt(1 + 8*3))/2 = 2, m = u*rho*v_ref = 2 kg/s.
local ref = tf.PressureDrop { dp_ref = 1e4, v_ref = 1e-3, L = 1e3, medium = water }
local res = lied.simulate(line(ref, 1.3e5, 1e5)):run()
T.near(last(res, "drop.m_flow"), 2.0, 1e-9, "PressureDrop steady flow")
T.near(last(res, "snk.m_flow"), 2.0, 1e-9, "Sink sees the same flow")
res = lied.simulate(line(ref, 1e5, 1.3e5)):run()
T.near(last(res, "drop.m_flow"), -2.0, 1e-9, "PressureDrop steady reversed flow")

-- LinearQuadraticDrop: 1e4*m + 5e3*m^2 = 3e4  =>  m = -1 + sqrt(7).
local lq = tf.LinearQuadraticDrop { k1 = 1e4, k2 = 5e3, L = 1e3 }
res = lied.simulate(line(lq, 1.3e5, 1e5)):run()
T.near(last(res, "drop.m_flow"), -1 + math.sqrt(7), 1e-9, "LinearQuadraticDrop steady flow")
res = lied.simulate(line(lq, 1e5, 1.3e5)):run()
T.near(last(res, "drop.m_flow"), 1 - math.sqrt(7), 1e-9, "LinearQuadraticDrop reversed")

-- LaminarDrop: dp = 128*mu*l*m/(pi*d^4*rho).
local lam = tf.LaminarDrop { l = 2, d = 0.02, mu = 1e-3, L = 100, medium = water }
local R = 128 * 1e-3 * 2 / (math.pi * 0.02 ^ 4 * 1000)
res = lied.simulate(line(lam, 1.3e5, 1e5)):run()
T.near(last(res, "drop.m_flow"), 3e4 / R, 1e-9, "LaminarDrop steady flow")

-- ---- a splitter feeding three sinks: initial flow derivatives -------------
-- All flows start at 0, so there are no losses; along each path k the total
-- pressure drops only inertially: Ls*S + L_k*dm_k = p0 - p_k with S = sum dm_k.
local p0, Ls = 2e5, 500
local Lk, pk = { 1e3, 2e3, 4e3 }, { 1.5e5, 1.2e5, 1.0e5 }
local Fan = lied.model "Fan" {
  src = tf.Source { p0 = p0, L = Ls, medium = water },
  s = tf.Splitter { N = 3 },
  p1 = tf.PressureDrop { L = Lk[1], medium = water },
  p2 = tf.PressureDrop { L = Lk[2], medium = water },
  p3 = tf.PressureDrop { L = Lk[3], medium = water },
  k1 = tf.Sink { p0 = pk[1] },
  k2 = tf.Sink { p0 = pk[2] },
  k3 = tf.Sink { p0 = pk[3] },
  connect = {
    { "src.outlet", "s.inlet" },
    { "s.outlet1", "p1.inlet" }, { "p1.outlet", "k1.inlet" },
    { "s.outlet2", "p2.inlet" }, { "p2.outlet", "k2.inlet" },
    { "s.outlet3", "p3.inlet" }, { "p3.outlet", "k3.inlet" },
  },
}
local num, inv = 0, 0
for k = 1, 3 do
  num = num + (p0 - pk[k]) / Lk[k]
  inv = inv + 1 / Lk[k]
end
local S = num / (1 + Ls * inv) -- 115 / 1.875
local dm = {}
for k = 1, 3 do dm[k] = (p0 - pk[k] - Ls * S) / Lk[k] end
local built = lied.build(Fan)
local d = built:derivatives(0)
T.near(d["src.m_flow"], S, 1e-9 * S, "splitter: der(src.m_flow)")
T.near(d["s.m_flow1"], dm[1], 1e-9 * S, "splitter: der(s.m_flow1)")
T.near(d["s.m_flow2"], dm[2], 1e-9 * S, "splitter: der(s.m_flow2)")
T.near(built:value("p3.outlet.der_m_flow"), dm[3], 1e-9 * S, "splitter: remainder outlet3")
T.near(dm[1], 19 + 1 / 3, 1e-12, "hand values: dm1")
T.near(dm[2], 24 + 2 / 3, 1e-12, "hand values: dm2")
T.near(dm[3], 17 + 1 / 3, 1e-12, "hand values: dm3")

-- ---- junction: flows add, enthalpy mixes by mass flow ---------------------
local Mix = lied.model "Mix" {
  hot = tf.Source { p0 = 2e5, T0 = 350, medium = water },
  cold = tf.Source { p0 = 1.8e5, T0 = 290, medium = water },
  ph = tf.PressureDrop { L = 1e3, medium = water },
  pc = tf.PressureDrop { L = 1e3, medium = water },
  j = tf.Junction { N = 2, medium = water },
  po = tf.PressureDrop { L = 1e3, medium = water },
  snk = tf.Sink { p0 = 1e5, medium = water },
  connect = {
    { "hot.outlet", "ph.inlet" }, { "ph.outlet", "j.inlet1" },
    { "cold.outlet", "pc.inlet" }, { "pc.outlet", "j.inlet2" },
    { "j.outlet", "po.inlet" }, { "po.outlet", "snk.inlet" },
  },
  experiment = { stop = 10, dt = 1e-3, vars = "ph.m_flow,pc.m_flow,j.m_flow,j.T,snk.T,ph.outlet.p,pc.outlet.p" },
}
res = lied.simulate(Mix):run()
local mh, mc = last(res, "ph.m_flow"), last(res, "pc.m_flow")
T.check(mh > 0 and mc > 0, "junction: both inlets flow")
T.near(last(res, "j.m_flow"), mh + mc, 1e-12, "junction: flows add")
T.near(last(res, "j.T"), (mh * 350 + mc * 290) / (mh + mc), 1e-4, "junction: mixing temperature")
T.near(last(res, "snk.T"), last(res, "j.T"), 1e-12, "enthalpy passes a pressure drop")
T.near(last(res, "ph.outlet.p"), last(res, "pc.outlet.p"), 1e-3, "junction: equal steady pressures")

-- ---- a gas volume between two reservoirs ----------------------------------
-- Steady state: the same flow passes both valves, dp(m; rho(p_in)) with the
-- density at each valve's inlet; the volume's temperature is the source's.
local air = tf.gas {}
local Rg, cp, Tg = 287.05, 1005.45, 300
local Charge = lied.model "Charge" {
  src = tf.Source { p0 = 2e5, T0 = Tg, medium = air },
  v1 = tf.PressureDrop { dp_ref = 1e4, v_ref = 1e-3, L = 1e5, medium = air },
  vol = tf.Volume { V = 0.01, p0 = 1e5, T0 = 280, medium = air },
  v2 = tf.PressureDrop { dp_ref = 1e4, v_ref = 1e-3, L = 1e5, medium = air },
  snk = tf.Sink { p0 = 1e5, medium = air },
  connect = {
    { "src.outlet", "v1.inlet" }, { "v1.outlet", "vol.inlet" },
    { "vol.outlet", "v2.inlet" }, { "v2.outlet", "snk.inlet" },
  },
  experiment = { stop = 100, dt = 1e-3, vars = "vol.p,vol.T,vol.M,v1.m_flow,v2.m_flow" },
}
-- hand solution: flow through a valve with inlet pressure pi and drop dpv
local function mflow(pi, dpv)
  local u = (-1 + math.sqrt(1 + 8 * dpv / 1e4)) / 2
  return u * (pi / (Rg * Tg)) * 1e-3
end
local lo, hi = 1e5, 2e5
for _ = 1, 200 do
  local mid = (lo + hi) / 2
  if mflow(2e5, 2e5 - mid) > mflow(mid, mid - 1e5) then lo = mid else hi = mid end
end
local pv = (lo + hi) / 2
res = lied.simulate(Charge):run()
T.near(last(res, "vol.p"), pv, 1e-6 * pv, "gas volume: steady pressure")
T.near(last(res, "v1.m_flow"), mflow(2e5, 2e5 - pv), 1e-9, "gas volume: steady flow in")
T.near(last(res, "v2.m_flow"), last(res, "v1.m_flow"), 1e-10, "gas volume: flow out = flow in")
T.near(last(res, "vol.T"), Tg, 1e-6, "gas volume: temperature of the source")
T.near(last(res, "vol.M"), pv * 0.01 / (Rg * Tg), 1e-9, "gas volume: ideal-gas mass")

T.done()
