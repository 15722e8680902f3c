-- Validation of lied.refrigeration's Receiver, Accumulator, ExpansionValve,
-- ThermostaticValve and sensors (docs/refrigeration.md): a closed circuit of a
-- compressor, a receiver cooled (the condenser's duty as its heat flow), an
-- expansion valve and an accumulator heated (the evaporator's), whose charge
-- must stay constant to rounding and whose energy changes by the heat flows and
-- the shaft's work; the vessels' outflows (saturated liquid, saturated vapour)
-- and levels by hand; the orifice law; a receiver run dry and an accumulator
-- flooded; the sensors against the refrigerant's calls.
local lied = require "lied"
local tf = require "lied.thermofluid"
local rf = require "lied.refrigeration"
local S = require "lied.signals"
local T = require "tests.testing"

local R = tf.R134a
local W, Vd = 300, 2e-5

-- ---- a closed circuit ---------------------------------------------------------
local Cycle = lied.model "Cycle" {
  parameters = { Qc = -2800, Qe = 1800, y = 0.5 },
  comp = rf.Compressor { V_d = Vd, eta_s = 0.7, eta_v = 0.9, medium = R },
  w = S.Constant { k = W },
  work = S.Integrator { k = W }, -- the shaft's work: integral of torque * w
  rcv = rf.Receiver { V = 2e-3, p0 = 1e6, level0 = 0.5, Q = lied.param "Qc", L = 1e4, m_flow = 0.0126, medium = R },
  sub = rf.SubcoolingSensor { medium = R },
  valve = rf.ExpansionValve { A = 6.3e-7, medium = R },
  opening = S.Constant { k = lied.param "y" },
  acc = rf.Accumulator { V = 5e-3, p0 = 3e5, level0 = 0.2, Q = lied.param "Qe", L = 1e4, m_flow = 0.0126, medium = R },
  sh = rf.SuperheatSensor { medium = R },
  connect = { { "acc.outlet", "sh.inlet" }, { "sh.outlet", "comp.inlet" }, { "comp.outlet", "rcv.inlet" },
              { "rcv.outlet", "sub.inlet" }, { "sub.outlet", "valve.inlet" }, { "valve.outlet", "acc.inlet" },
              { "w.y", "comp.speed" }, { "opening.y", "valve.opening" }, { "comp.torque", "work.u" } },
}
local m = lied.build(Cycle)
local M0 = m:value("rcv.M") + m:value("acc.M")
local U0 = m:value("rcv.U") + m:value("acc.U")
-- start states by hand: saturated liquid (share level0 of V) and vapour at p0
T.near(m:value("rcv.M"), 2e-3 * (0.5 * R:rho_liq(1e6) + 0.5 * R:rho_vap(1e6)), 1e-12, "receiver: start charge")
T.near(m:value("acc.M"), 5e-3 * (0.2 * R:rho_liq(3e5) + 0.8 * R:rho_vap(3e5)), 1e-12, "accumulator: start charge")
T.near(m:value("rcv.p"), 1e6, 1e-9 * 1e6, "receiver: (M, U) give p0 back")
T.near(m:value("rcv.level"), 0.5, 1e-9, "receiver: start level")
T.near(m:value("acc.level"), 0.2, 1e-9, "accumulator: start level")
local res, _, err = m:run { stop = 30, solver = "cvode", tol = 1e-9, interval = 0.5,
  vars = "rcv.M,acc.M,rcv.U,acc.U,rcv.level,acc.level,work.y,rcv.p,acc.p,comp.m_flow" }
T.check(not err, "the circuit runs: " .. tostring(err))
local n = res:nrows()
local worstM, worstE = 0, 0
for i = 1, n do
  local t = T.column(res, "time")[i]
  local Mt = T.column(res, "rcv.M")[i] + T.column(res, "acc.M")[i]
  worstM = math.max(worstM, math.abs(Mt / M0 - 1))
  local dU = T.column(res, "rcv.U")[i] + T.column(res, "acc.U")[i] - U0
  local E = (-2800 + 1800) * t + T.column(res, "work.y")[i]
  worstE = math.max(worstE, math.abs(dU - E) / (1800 * 30))
end
T.check(worstM < 1e-9, "circuit: the charge kept to 1e-9 (" .. worstM .. ")")
T.check(worstE < 1e-6, "circuit: energy = heat flows + the shaft's work (" .. worstE .. ")")
local r1, rn = T.column(res, "rcv.M")[1], T.column(res, "rcv.M")[n]
T.check(rn / r1 - 1 > 0.01, "circuit: charge moved into the receiver (" .. r1 .. " -> " .. rn .. " kg)")
-- outflows: saturated liquid from the receiver, saturated vapour from the accumulator
local pr, pa = m:value("rcv.p"), m:value("acc.p")
T.near(m:value("sub.subcooling"), 0, 1e-9, "receiver: saturated liquid leaves (subcooling 0)")
T.near(m:value("rcv.outlet.h"), R:h_liq(pr), 1e-9 * R:h_liq(pr), "receiver: h_out = h'(p)")
T.near(m:value("acc.outlet.h"), R:h_vap(pa), 1e-9 * R:h_vap(pa), "accumulator: h_out = h''(p)")
T.near(m:value("sh.superheat"), 0, 1e-9, "accumulator: saturated vapour (superheat 0)")
-- the level by hand: liquid volume over V from (rho, x)
local x = R:x_ph(pr, m:value("rcv.h"))
T.near(m:value("rcv.level"), (1 - x) * m:value("rcv.M") / R:rho_liq(pr) / 2e-3, 1e-9, "receiver: level (1 - x) M/(rho' V)")
-- the orifice: dp = m|m| / (2 rho1 (f A)^2), f = 1e-4 + (1 - 1e-4) y
local mf, f = m:value("valve.m_flow"), 1e-4 + (1 - 1e-4) * 0.5
T.near(m:value("valve.dp"), mf * math.abs(mf) / (2 * R:rho_ph(pr, R:h_liq(pr)) * (f * 6.3e-7) ^ 2),
  1e-9 * m:value("valve.dp"), "valve: the orifice law at the liquid's density")
T.near(m:value("valve.outlet.h"), m:value("valve.inlet.h"), 0, "valve: isenthalpic")

-- ---- a receiver run dry and an accumulator flooded ------------------------------
local function drain(cls, level0, p0, psink, mouth)
  return lied.model "Drain" {
    src = tf.MassFlowSource { m_flow = 0, T0 = 300, p0 = p0, medium = R },
    v = cls { V = 1e-3, p0 = p0, level0 = level0, level_mouth = mouth, L = 1e4, medium = R },
    valve = rf.ExpansionValve { A = 2e-6, medium = R },
    opening = S.Constant { k = 1 },
    out = tf.MassFlowSensor { medium = R },
    gone = S.Integrator {}, -- the mass that left
    snk = tf.Sink { p0 = psink, medium = R },
    connect = { { "src.outlet", "v.inlet" }, { "v.outlet", "valve.inlet" }, { "valve.outlet", "out.inlet" },
                { "out.outlet", "snk.inlet" }, { "opening.y", "valve.opening" }, { "out.y", "gone.u" } },
  }
end
-- the charge plus what left minus what came in (m_in t) stays M0
local function balance(r, M0, m_in)
  local worst = 0
  for i = 1, r:nrows() do
    local t = T.column(r, "time")[i]
    worst = math.max(worst, math.abs((T.column(r, "v.M")[i] + T.column(r, "gone.y")[i] - m_in * t) / M0 - 1))
  end
  return worst
end
local function finite_all(r, vars)
  for _, v in ipairs(vars) do
    for _, x in ipairs(T.column(r, v)) do if x ~= x or math.abs(x) == math.huge then return false end end
  end
  return true
end
local vars = { "v.M", "v.level", "v.x_out", "v.outlet.h", "v.p", "gone.y" }
do
  local b = lied.build(drain(rf.Receiver, 0.05, 1e6, 3e5, 0.02))
  local M0 = b:value("v.M")
  local r, _, e = b:run { stop = 20, solver = "cvode", tol = 1e-9, interval = 0.05, vars = table.concat(vars, ",") }
  T.check(not e, "receiver run dry: runs (" .. tostring(e) .. ")")
  T.check(finite_all(r, vars), "receiver run dry: no NaN")
  local k = r:nrows()
  T.check(T.column(r, "v.level")[k] < 1e-3, "receiver run dry: level near 0 at the end (" .. T.column(r, "v.level")[k] .. ")")
  T.check(T.column(r, "v.M")[k] < 0.2 * M0, "receiver run dry: most of its charge gone")
  local seen = false
  for i = 1, k do
    local lv, xo = T.column(r, "v.level")[i], T.column(r, "v.x_out")[i]
    if lv > 0 and lv < 0.02 then seen = true end
    if lv >= 0.02 then T.check(xo == 0, "receiver: liquid out while level >= level_mouth") end
    T.check(lv >= 0 and lv <= 1, "receiver: level in [0, 1]")
  end
  T.check(seen, "receiver run dry: passed through the mouth's blend")
  local w = balance(r, M0, 0)
  T.check(w < 1e-9, "receiver run dry: charge + outflow = start charge to 1e-9 (" .. w .. ")")
  T.check(T.column(r, "v.x_out")[k] > 0.9, "receiver run dry: vapour leaves (x_out " .. T.column(r, "v.x_out")[k] .. ")")
end
do
  -- an accumulator flooded: liquid fills it (inflow of subcooled liquid), vapour, then liquid leaves
  local M = lied.model "Flood" {
    src = tf.MassFlowSource { m_flow = 0.02, T0 = 270, p0 = 3e5, medium = R },
    v = rf.Accumulator { V = 1e-3, p0 = 3e5, level0 = 0.9, L = 1e4, m_flow = 1.7e-3, medium = R },
    valve = rf.ExpansionValve { A = 1e-6, medium = R },
    opening = S.Constant { k = 1 },
    out = tf.MassFlowSensor { medium = R },
    gone = S.Integrator {},
    snk = tf.Sink { p0 = 2e5, medium = R },
    connect = { { "src.outlet", "v.inlet" }, { "v.outlet", "valve.inlet" }, { "valve.outlet", "out.inlet" },
                { "out.outlet", "snk.inlet" }, { "opening.y", "valve.opening" }, { "out.y", "gone.u" } },
  }
  local b = lied.build(M)
  local M0 = b:value("v.M")
  local r, _, e = b:run { stop = 30, solver = "cvode", tol = 1e-9, interval = 0.05, vars = table.concat(vars, ",") }
  T.check(not e, "accumulator flooded: runs (" .. tostring(e) .. ")")
  T.check(finite_all(r, vars), "accumulator flooded: no NaN")
  local k = r:nrows()
  T.eq(T.column(r, "v.level")[k], 1, "accumulator flooded: level 1")
  T.eq(T.column(r, "v.x_out")[k], 0, "accumulator flooded: liquid leaves")
  local w = balance(r, M0, 0.02)
  T.check(w < 1e-9, "accumulator filled: charge + outflow - inflow = start charge to 1e-9 (" .. w .. ")")
end

-- ---- a thermostatic valve holding an evaporator's superheat ---------------------
-- liquid at 10 bar through the valve into a heated cell (the evaporator) at 3 bar; the
-- bulb reads the superheat at its outlet. At steady state, by hand: the opening from the
-- superheat, the flow from the orifice at that opening, the superheat from the flow by
-- the cell's energy balance.
do
  local M = lied.model "Txv" {
    src = tf.Source { p0 = 1e6, T0 = 300, L = 1e4, m_flow = 0.01, medium = R },
    txv = rf.ThermostaticValve { A = 5e-7, sh_static = 3, sh_range = 4, T_bulb = 2, sh_b = 5, medium = R },
    evap = tf.Heater { Q = 1700, V = 1e-4, T0 = 275, p0 = 3e5, medium = R },
    sh = rf.SuperheatSensor { medium = R },
    snk = tf.Sink { p0 = 3e5, medium = R },
    connect = { { "src.outlet", "txv.inlet" }, { "txv.outlet", "evap.inlet" }, { "evap.outlet", "sh.inlet" },
                { "sh.outlet", "snk.inlet" }, { "sh.y", "txv.superheat" } },
  }
  local b = lied.build(M)
  local _, _, e = b:run { stop = 300, solver = "cvode", tol = 1e-10 }
  T.check(not e, "thermostatic valve: runs (" .. tostring(e) .. ")")
  local sh, y, mf = b:value("sh.y"), b:value("txv.y"), b:value("txv.m_flow")
  T.check(y > 0 and y < 1, "thermostatic valve: settles part open (y = " .. y .. ")")
  T.near(b:value("txv.sh_b"), sh, 1e-6, "thermostatic valve: the bulb reached the superheat")
  T.near(y, (sh - 3) / 4, 1e-6, "thermostatic valve: y = (sh - sh_static)/sh_range")
  local f = 1e-4 + (1 - 1e-4) * y
  local rho1 = R:rho_pT(1e6, 300)
  T.near(mf, f * 5e-7 * math.sqrt(2 * rho1 * 7e5), 1e-6 * mf, "thermostatic valve: the orifice's flow")
  local h2 = R:h_pT(1e6, 300) + 1700 / mf
  T.near(sh, R:T_ph(3e5, h2) - R:Tsat(3e5), 1e-6, "thermostatic valve: the superheat of the cell's balance")
end

-- ---- sensors against the refrigerant's calls ---------------------------------
-- the stream from a source of (p, T), or a receiver's two-phase outflow (level_mouth = 1:
-- x_out = x (1 - level))
for _, st in ipairs { { 3e5, 285 }, { 1e6, 300 }, { 8e5, 0 } } do
  local p = st[1]
  local src = st[2] > 0 and tf.Source { p0 = p, T0 = st[2], L = 1e4, medium = R }
    or rf.Receiver { p0 = p, level0 = 0.3, level_mouth = 1, L = 1e4, medium = R }
  local M = lied.model "Sensors" {
    src = src,
    feed = st[2] == 0 and tf.MassFlowSource { m_flow = 0, T0 = 300, p0 = p, medium = R } or nil,
    sh = rf.SuperheatSensor { medium = R }, sc = rf.SubcoolingSensor { medium = R },
    q = rf.QualitySensor { medium = R }, qe = rf.QualitySensor { extended = 1, medium = R },
    ts = rf.SaturationTemperatureSensor { medium = R },
    snk = tf.Sink { p0 = p, medium = R },
    connect = { { "src.outlet", "sh.inlet" }, { "sh.outlet", "sc.inlet" }, { "sc.outlet", "q.inlet" },
                { "q.outlet", "qe.inlet" }, { "qe.outlet", "ts.inlet" }, { "ts.outlet", "snk.inlet" },
                st[2] == 0 and { "feed.outlet", "src.inlet" } or nil },
  }
  local b = lied.build(M)
  b:run { stop = 0.01, solver = "rk4", dt = 0.01 }
  local pp, h = b:value("ts.outlet.p"), b:value("ts.outlet.h")
  local Ts, Tt = R:Tsat(pp), R:T_ph(pp, h)
  local tag = string.format("sensors at p = %g, h = %.6g: ", pp, h)
  T.near(b:value("ts.y"), Ts, 1e-9, tag .. "Tsat")
  T.near(b:value("sh.y"), Tt - Ts, 1e-9, tag .. "superheat T - Tsat")
  T.near(b:value("sc.y"), Ts - Tt, 1e-9, tag .. "subcooling Tsat - T")
  T.near(b:value("q.y"), R:x_ph(pp, h), 1e-12, tag .. "quality")
  T.near(b:value("qe.y"), (h - R:h_liq(pp)) / (R:h_vap(pp) - R:h_liq(pp)), 1e-12, tag .. "extended quality")
  if st[2] == 0 then T.check(b:value("q.y") > 0.05 and b:value("q.y") < 0.95, tag .. "two-phase") end
end

T.done()
