-- Lane forms of the media (docs/media.md, "Lane forms"): arrays of
-- exchangers and conduction elements with water and steam (IAPWS-IF97) and
-- with moist air take fused steps in lane form, where each cell's
-- temperature comes from the medium's lane routine (several states per
-- instruction on IF97's region-1 and region-2 paths and moist air's
-- unsaturated path, the scalar routine for the others: two-phase water,
-- fog). Every recorded value must be the same bits with lanes on and off.
-- 40 copies: a full group of 32 and a partial one; the copies differ.
local lied = require "lied"
local tf = require "lied.thermofluid"
local air_cp = tf.gas {} -- air of constant cp (the tests' laws assume it)
local th = require "lied.thermal"
local T = require "tests.testing"

local function same_bits(M, opts, what)
  local built = lied.build(M)
  T.check(built:info().lanes, what .. ": the copies run in lane form")
  local function run(lanes)
    local o = { lanes = lanes, progress = false }
    for k, v in pairs(opts) do o[k] = v end
    local res, stats = lied.build(M):run(o)
    return res, stats
  end
  local a, sa = run(true)
  local b, sb = run(false)
  T.check(sa.fused and sa.lanes, what .. ": fused steps in lane form")
  T.check(sb.fused and not sb.lanes, what .. ": lanes = false: copy by copy")
  local diff, cols, moved = 0, 0, 0
  for _, name in ipairs(T.names(a)) do
    local ca, cb = T.column(a, name), T.column(b, name)
    cols = cols + 1
    for i = 1, #ca do
      if ca[i] ~= cb[i] and not (ca[i] ~= ca[i] and cb[i] ~= cb[i]) then diff = diff + 1 end
    end
    if ca[#ca] ~= ca[1] then moved = moved + 1 end
  end
  T.eq(diff, 0, what .. ": lanes on and off give the same bits (" .. cols .. " columns)")
  T.check(moved > 40, what .. ": the copies moved (" .. moved .. " columns)")
  return a
end

-- water heated from 350 K to boiling and superheat at 2 bar (stream b:
-- region 1, two-phase, region 2) by superheated steam at 10 bar (stream a,
-- region 2); a Heater and a ConductionElement heat the water first. Copy i
-- has its own flows and heat.
local Evap = lied.model "Evap" {
  parameters = { m_w = 0.01, m_s = 0.05, Q = 2e3 },
  hot = tf.MassFlowSource { m_flow = lied.param "m_s", T0 = 700, p0 = 1e6, medium = tf.steam },
  water = tf.MassFlowSource { m_flow = lied.param "m_w", T0 = 350, p0 = 2e5, medium = tf.steam },
  heat = tf.Heater { Q = lied.param "Q", V = 1e-4, T0 = 350, p0 = 2e5, medium = tf.steam },
  pre = tf.ConductionElement { V = 1e-4, T0 = 350, p0 = 2e5, medium = tf.steam },
  q = th.FixedHeatFlow { Q_flow = lied.param "Q" },
  hx = tf.CounterFlowHX { N = 8, UA = 400, V_a = 1e-2, V_b = 2e-4, T0_a = 600, T0_b = 380,
                          p0_a = 1e6, p0_b = 2e5, medium_a = tf.steam, medium_b = tf.steam },
  out_a = tf.Sink { p0 = 1e6, medium = tf.steam },
  out_b = tf.Sink { p0 = 2e5, medium = tf.steam },
  connect = { { "hot.outlet", "hx.inlet_a" }, { "hx.outlet_a", "out_a.inlet" },
              { "water.outlet", "heat.inlet" }, { "heat.outlet", "pre.inlet" },
              { "q.port", "pre.heatPort" },
              { "pre.outlet", "hx.inlet_b" }, { "hx.outlet_b", "out_b.inlet" } },
}
local Evaps = lied.model "Evaps" {
  e = lied.array(Evap, 40, { m_w = function(i) return 0.004 + 1e-4 * i end,
                             m_s = function(i) return 0.04 + 5e-4 * i end,
                             Q = function(i) return 250 + 20 * i end }),
}
local r = same_bits(Evaps, { stop = 10, solver = "rk4", dt = 0.02, interval = 0.5,
                             vars = "e[*].hx.*,e[*].pre.*,e[*].heat.*" }, "steam")
-- the water went through every path: liquid, two-phase and vapour cells
local steam = tf.steam
local phases = {}
for i = 1, 40 do
  for k = 1, 8 do
    for _, h in ipairs(T.column(r, ("e[%d].hx.h_b[%d]"):format(i, k))) do
      local x = steam:x_ph(2e5, h)
      phases[x == 0 and "liquid" or x == 1 and "vapour" or "mixture"] = true
    end
  end
end
T.check(phases.liquid and phases.mixture and phases.vapour, "steam: liquid, mixture and vapour cells")

-- humid air cooled below its dew point in a cross-flow coil (fog in the
-- cold cells, unsaturated air in the warm ones) against glycol; each copy
-- has its own air temperature, a wall capacity, a ConductionElement warming
-- the air first and a Heater cooling it
local glycol = tf.liquid { rho = 1060, cp = 3500 }
local function Coil(X)
  local humid = tf.moist_air { X = X }
  return lied.model "Coil" {
    parameters = { T_in = 303.15 },
    air = tf.MassFlowSource { m_flow = 0.2, T0 = lied.param "T_in", p0 = 101325, medium = humid },
    pre = tf.ConductionElement { V = 1e-3, T0 = 303.15, p0 = 101325, medium = humid },
    q = th.FixedHeatFlow { Q_flow = 300 },
    chill = tf.Heater { Q = -200, V = 1e-3, T0 = 303.15, p0 = 101325, medium = humid },
    coil = tf.CrossFlowHX { N = 3, UA = 2000, V_a = 0.02, V_b = 0.002, C_w = 500, T0_a = 303.15,
                            T0_b = 288.15, p0_a = 101325, medium_a = humid, medium_b = glycol },
    cold = tf.MassFlowSource { m_flow = 0.5, T0 = 280.15, medium = glycol },
    out_a = tf.Sink { p0 = 101325, medium = humid },
    out_b = tf.Sink { medium = glycol },
    connect = { { "air.outlet", "pre.inlet" }, { "q.port", "pre.heatPort" },
                { "pre.outlet", "chill.inlet" }, { "chill.outlet", "coil.inlet_a" }, { "coil.outlet_a", "out_a.inlet" },
                { "cold.outlet", "coil.inlet_b" }, { "coil.outlet_b", "out_b.inlet" } },
  }
end
local Coils = lied.model "Coils" {
  c = lied.array(Coil(tf.moist_air:X_phi(101325, 303.15, 0.6)), 40,
                 { T_in = function(i) return 298.15 + 0.25 * i end }),
}
r = same_bits(Coils, { stop = 6, solver = "rk4", dt = 0.005, interval = 0.25,
                       vars = "c[*].coil.*,c[*].pre.*,c[*].chill.*" }, "moist air")
-- fog in some cells: their temperature is below the air's dew point
local X = tf.moist_air:X_phi(101325, 303.15, 0.6)
local Tdew = tf.moist_air:T_dew(101325, X)
local fog, dry = 0, 0
for i = 1, 40 do
  local Ta = T.column(r, ("c[%d].coil.T_a"):format(i))
  if Ta[#Ta] < Tdew then fog = fog + 1 else dry = dry + 1 end
end
T.check(fog > 0, "moist air: copies whose air leaves below its dew point (" .. fog .. ")")

-- a copy's state leaving the medium's range in a lane form is that copy's
-- fault, the same message with lanes on and off: 8 heaters, copy 5 runs
-- away above 2273.15 K (Heater's lane form), and 8 exchangers whose copy 3
-- cools its moist air below 200 K, the end of its range (the exchanger's
-- media path)
local Boil = lied.model "Boil" {
  parameters = { Q = 1e3 },
  src = tf.MassFlowSource { m_flow = 1e-3, T0 = 300, p0 = 1e5, medium = tf.steam },
  c = tf.Heater { Q = lied.param "Q", V = 1e-3, T0 = 300, medium = tf.steam },
  snk = tf.Sink { p0 = 1e5, medium = tf.steam },
  connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" } },
}
local wet = tf.moist_air { X = 0.01 }
local Freeze = lied.model "Freeze" {
  parameters = { T_cold = 280 },
  a = tf.MassFlowSource { m_flow = 0.01, T0 = 300, p0 = 1e5, medium = wet },
  b = tf.MassFlowSource { m_flow = 1, T0 = lied.param "T_cold", p0 = 1e5, medium = air_cp },
  hx = tf.CounterFlowHX { N = 4, UA = 1e3, medium_a = wet, medium_b = air_cp, T0_a = 300,
                          T0_b = 280 },
  sa = tf.Sink { medium = wet }, sb = tf.Sink { medium = air_cp },
  connect = { { "a.outlet", "hx.inlet_a" }, { "hx.outlet_a", "sa.inlet" },
              { "b.outlet", "hx.inlet_b" }, { "hx.outlet_b", "sb.inlet" } },
}
local cases = {
  { lied.model "Boils" { e = lied.array(Boil, 8, { Q = function(i) return i == 5 and 1e5 or 1e3 end }) },
    { stop = 200, solver = "rk4", dt = 0.01 },
    { "at t = 75.2", "e[5].c: content: IF97: p = 100000 Pa", "above 2273.15 K" }, "heater copy 5" },
  { lied.model "Freezes" { e = lied.array(Freeze, 8, { T_cold = function(i) return i == 3 and 150 or 280 end }) },
    { stop = 20, solver = "rk4", dt = 0.001 },
    { "e[3].hx: stream a cell: moist air: p = 100000 Pa", "below 200 K" }, "exchanger copy 3" },
}
for _, c in ipairs(cases) do
  T.check(lied.build(c[1]):info().lanes, c[4] .. ": lane form")
  local msgs = {}
  for _, lanes in ipairs { true, false } do
    local o = { lanes = lanes }
    for k, v in pairs(c[2]) do o[k] = v end
    local _, _, msg = lied.build(c[1]):run(o)
    msg = msg or ""
    for _, want in ipairs(c[3]) do
      T.check(msg:find(want, 1, true), c[4] .. ", lanes " .. tostring(lanes) .. ": " .. want .. " in " .. msg)
    end
    msgs[#msgs + 1] = msg
  end
  T.eq(msgs[1], msgs[2], c[4] .. ": the same message with lanes on and off")
end

T.done()
