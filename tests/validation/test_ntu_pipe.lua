-- Validation of the effectiveness-NTU exchangers, the Pipe's friction law
-- and the Separator on NASA moist air (docs/thermofluid.md):
-- 1. CounterFlowNTU, ParallelFlowNTU, CrossFlowNTU with constant-cp media
--    against the closed forms of eps(NTU, Cr), for Cr < 1, Cr = 1 and either
--    stream the smaller, to 1e-12; with NASA gases the heat leaving one
--    stream enters the other (1e-12); a stagnant stream: no heat, no NaN;
-- 2. Pipe: laminar flow at the Hagen-Poiseuille drop, turbulent flow at
--    Haaland's law written here, odd in the flow, continuous at the regime
--    bounds; Haaland against Colebrook (solved here) within 1.5 %;
-- 3. Separator on tf.moist_air_nasa: the fog drained, the balances.
local lied = require "lied"
local tf = require "lied.thermofluid"
local T = require "tests.testing"

-- 1. NTU
local function eps_of(kind, NTU, Cr)
  if kind == "ParallelFlowNTU" then return (1 - math.exp(-NTU * (1 + Cr))) / (1 + Cr) end
  if kind == "CrossFlowNTU" then
    return 1 - math.exp(NTU ^ 0.22 / Cr * (math.exp(-Cr * NTU ^ 0.78) - 1))
  end
  if math.abs(Cr - 1) < 1e-15 then return NTU / (1 + NTU) end
  local x = NTU * (1 - Cr)
  return (1 - math.exp(-x)) / (1 - Cr * math.exp(-x))
end
local liquid, gas = tf.liquid { cp = 4000, beta = 0 }, tf.gas { R = 287, cp = 1000 }
local function exchanger(kind, ma, mb, UA, Ta, Tb, med_a, med_b)
  return lied.model "NTU" {
    a = tf.MassFlowSource { m_flow = ma, T0 = Ta, p0 = 2e5, medium = med_a },
    b = tf.MassFlowSource { m_flow = mb, T0 = Tb, p0 = 1e5, medium = med_b },
    x = tf[kind] { UA = UA, medium_a = med_a, medium_b = med_b },
    ka = tf.Sink { p0 = 2e5, medium = med_a }, kb = tf.Sink { p0 = 1e5, medium = med_b },
    connect = { { "a.outlet", "x.inlet_a" }, { "x.outlet_a", "ka.inlet" },
                { "b.outlet", "x.inlet_b" }, { "x.outlet_b", "kb.inlet" } },
  }
end
local function outlets(M)
  local res, _, err = lied.build(M):run { stop = 0.01, solver = "rk4", dt = 0.01,
    vars = "x.T_a,x.T_b,x.Q_flow,x.eps,x.NTU,x.Cr" }
  T.check(not err, "exchanger runs: " .. tostring(err))
  local n = res:nrows()
  local r = {}
  for _, v in ipairs { "T_a", "T_b", "Q_flow", "eps", "NTU", "Cr" } do r[v] = T.column(res, "x." .. v)[n] end
  return r
end
local worst = 0
for _, kind in ipairs { "CounterFlowNTU", "ParallelFlowNTU", "CrossFlowNTU" } do
  -- a: liquid (C_a = m cp 4000 m), b: gas (1000 m): Cr < 1 either way round, and Cr = 1
  for _, case in ipairs { { 0.05, 0.5 }, { 0.4, 0.3 }, { 0.1, 0.4 } } do
    local ma, mb, UA, Ta, Tb = case[1], case[2], 350, 360, 290
    local r = outlets(exchanger(kind, ma, mb, UA, Ta, Tb, liquid, gas))
    local Ca, Cb = ma * 4000, mb * 1000
    local Cmin, Cmax = math.min(Ca, Cb), math.max(Ca, Cb)
    local e = eps_of(kind, UA / Cmin, Cmin / Cmax)
    local Q = e * Cmin * (Ta - Tb)
    for _, c in ipairs { { r.eps, e }, { r.Q_flow, Q }, { r.T_a, Ta - Q / Ca }, { r.T_b, Tb + Q / Cb } } do
      worst = math.max(worst, math.abs(c[1] / c[2] - 1))
    end
  end
end
print(string.format("NTU closed forms: worst %.2e", worst))
T.check(worst < 1e-12, "eps-NTU closed forms to 1e-12: " .. worst)
-- NASA gases: products heating air; what leaves one stream enters the other
do
  local prod = tf.combustion_products { fuel = { C = 12, H = 23 }, far = 0.015 }
  for _, kind in ipairs { "CounterFlowNTU", "CrossFlowNTU" } do
    local r = outlets(exchanger(kind, 0.3, 0.5, 800, 950, 300, prod, tf.air))
    local qa = 0.3 * (prod:h_T(950) - prod:h_T(r.T_a))
    local qb = 0.5 * (tf.air:h_T(r.T_b) - tf.air:h_T(300))
    T.near(qa, r.Q_flow, 1e-9 * r.Q_flow, kind .. ": heat out of the products")
    T.near(qb, r.Q_flow, 1e-9 * r.Q_flow, kind .. ": heat into the air")
    T.check(r.T_a < 950 and r.T_b > 300 and r.T_b < 950, kind .. ": temperatures between the inlets")
  end
end
-- moist air on both sides (both ports carry X): a condenser cooling humid air
-- into fog; what leaves one stream enters the other
do
  local wet, dry = tf.moist_air_nasa { X = 0.02 }, tf.moist_air_nasa { X = 0.002 }
  local r = outlets(exchanger("CounterFlowNTU", 0.2, 0.3, 600, 320, 285, wet, dry))
  local ma = tf.moist_air_nasa
  local qa = 0.2 * (ma:h_pTX(2e5, 320, 0.02) - ma:h_pTX(2e5, r.T_a, 0.02))
  local qb = 0.3 * (ma:h_pTX(1e5, r.T_b, 0.002) - ma:h_pTX(1e5, 285, 0.002))
  T.near(qa, r.Q_flow, 1e-9 * r.Q_flow, "moist air: heat out of the humid stream")
  T.near(qb, r.Q_flow, 1e-9 * r.Q_flow, "moist air: heat into the dry stream")
  T.check(tf.moist_air_nasa:X_liquid(2e5, r.T_a, 0.02) > 0, "moist air: the humid stream condenses")
end
-- a stagnant stream: nothing exchanged, nothing undefined
do
  local r = outlets(exchanger("CounterFlowNTU", 0, 0.5, 500, 360, 290, liquid, gas))
  T.eq(r.Q_flow, 0, "stagnant a: no heat")
  T.check(r.T_a == r.T_a and r.T_b == r.T_b, "stagnant a: no NaN")
  T.near(r.T_b, 290, 1e-12, "stagnant a: b passes unchanged")
  T.eq(r.NTU, 1e300, "stagnant a: NTU held at 1e300, finite")
end

-- 2. Pipe
local mu, l, d, ks, rho = 1e-3, 3, 0.02, 4.5e-5, 998
local water = tf.liquid { rho = rho, beta = 0 }
local function pipe_dp(m)
  local M = lied.model "P" {
    s = tf.MassFlowSource { m_flow = m, T0 = 300, p0 = 5e5, medium = water },
    pipe = tf.Pipe { l = l, d = d, ks = ks, mu = mu, medium = water },
    k = tf.Sink { p0 = 1e5, medium = water },
    connect = { { "s.outlet", "pipe.inlet" }, { "pipe.outlet", "k.inlet" } },
  }
  local res = lied.build(M):run { stop = 0.01, solver = "rk4", dt = 0.01, vars = "pipe.dp,pipe.Re" }
  return T.column(res, "pipe.dp")[res:nrows()], T.column(res, "pipe.Re")[res:nrows()]
end
local A = math.pi * d * d / 4
local function Re_of(m) return m * d / (A * mu) end
local function m_of(Re) return Re * A * mu / d end
local function haaland(Re) return (-1.8 * math.log(((ks / d) / 3.7) ^ 1.11 + 6.9 / Re, 10)) ^ -2 end
do
  local m = m_of(1500)
  local dp = pipe_dp(m)
  T.near(dp, 128 * mu * l * m / (math.pi * rho * d ^ 4), 1e-12 * dp, "laminar: Hagen-Poiseuille")
  T.near(pipe_dp(-m), -dp, 1e-12 * dp, "odd in the flow")
  for _, Re in ipairs { 5000, 4e4, 1e6 } do
    local mt = m_of(Re)
    local dpt, Rt = pipe_dp(mt)
    T.near(Rt, Re, 1e-9 * Re, "Reynolds number")
    local v = mt / (rho * A)
    T.near(dpt, haaland(Re) * l / d * rho * v * v / 2, 1e-12 * dpt, "turbulent: Haaland at Re " .. Re)
  end
  for _, Re in ipairs { 2300, 4000 } do
    local lo, hi = pipe_dp(m_of(Re * (1 - 1e-9))), pipe_dp(m_of(Re * (1 + 1e-9)))
    T.near(lo, hi, 1e-7 * hi, "continuous at Re " .. Re)
  end
  T.eq(pipe_dp(0), 0, "no flow, no drop")
end
-- Haaland against Colebrook (1/sqrt(f) = -2 log10(r/3.7 + 2.51/(Re sqrt(f))), fixed point)
do
  local worst_c = 0
  for _, r in ipairs { 0, 1e-5, 1e-4, 1e-3, 1e-2, 0.05 } do
    for e = 3.7, 8, 0.1 do
      local Re = 10 ^ e
      local x = 0.02
      for _ = 1, 100 do x = (-2 * math.log(r / 3.7 + 2.51 / (Re * math.sqrt(x)), 10)) ^ -2 end
      local h = (-1.8 * math.log((r / 3.7) ^ 1.11 + 6.9 / Re, 10)) ^ -2
      worst_c = math.max(worst_c, math.abs(h / x - 1))
    end
  end
  print(string.format("Haaland against Colebrook, Re 5e3 to 1e8, ks/d 0 to 0.05: %.2f %%", 100 * worst_c))
  T.check(worst_c < 0.015, "Haaland within 1.5 % of Colebrook: " .. worst_c)
end

-- 3. Separator on moist air of NASA polynomials: cooled into fog, drained.
do
  local med = tf.moist_air_nasa { X = 0.02 }
  local m, X = 0.2, 0.02
  local M = lied.model "Dry" {
    s = tf.MassFlowSource { m_flow = m, T0 = 303.15, p0 = 1e5, medium = med },
    cool = tf.Heater { Q = -1.2e4, V = 1e-4, T0 = 303.15, p0 = 1e5, medium = med },
    sep = tf.Separator { outlet = 1, medium = med },
    k = tf.Sink { p0 = 1e5, medium = med },
    connect = { { "s.outlet", "cool.inlet" }, { "cool.outlet", "sep.inlet" }, { "sep.outlet", "k.inlet" } },
  }
  local res, _, err = lied.build(M):run { stop = 5, solver = "dopri45", tol = 1e-10,
    vars = "cool.T,sep.m_cond,sep.m_air,sep.H_cond,sep.H_air,sep.x_out,k.inlet.X1,k.inlet.h" }
  T.check(not err, "separator runs: " .. tostring(err))
  local n = res:nrows()
  local function last(v) return T.column(res, v)[n] end
  local hin = tf.moist_air_nasa:h_pTX(1e5, 303.15, X) + (-1.2e4) / m
  local st = tf.moist_air_nasa:state_phX(1e5, hin, X)
  T.check(st.Xl > 0, "the air is cooled into fog")
  T.near(last("sep.m_cond"), m * st.Xl, 1e-9 * m * st.Xl, "condensate = m Xl")
  T.near(last("sep.m_air") + last("sep.m_cond"), m, 1e-12, "mass balance")
  T.near(last("sep.H_air") + last("sep.H_cond"), m * hin, 1e-6, "enthalpy balance")
  T.near(last("k.inlet.X1"), st.Xv / (1 - st.Xl), 1e-9, "the air goes on with its vapour")
  T.near(last("sep.x_out"), st.Xv / (1 - X), 1e-9, "humidity ratio")
  T.near(last("sep.m_air") * last("k.inlet.h"), last("sep.H_air"), 1e-6, "the air's enthalpy flow")
end

os.exit(T.done())
