-- Mass fractions in the stream (docs/thermofluid.md, "Mixtures"): moist air
-- carries its water fraction X1 from component to component. A mixing box
-- (Junction) against the psychrometric formulas written here by hand; a loop
-- of two Volumes whose water is conserved and evens out to the mass-weighted
-- mean; a Separator that drains the fog and passes the dried air on; lane
-- forms with copies of different water fractions; ports without X for media
-- of one substance; and every refusal.
local lied = require "lied"
local tf = require "lied.thermofluid"
local T = require "tests.testing"
local ma = tf.moist_air
local p = 101325

-- the psychrometric laws, unsaturated (no fog), independent of the C code
local cpa, cpv, r0 = 1006, 1860, 2501e3
local function h_TX(Tk, X) return (1 - X) * cpa * (Tk - 273.15) + X * (r0 + cpv * (Tk - 273.15)) end
local function T_hX(h, X) return 273.15 + (h - X * r0) / ((1 - X) * cpa + X * cpv) end

-- 1. a mixing box: outdoor air (35 degC, X = 0.018) and return air (24 degC,
-- X = 0.009) mixed by mass
local m1, m2, X1, X2, T1, T2 = 0.3, 0.7, 0.018, 0.009, 308.15, 297.15
local Box = lied.model "MixingBox" {
  outdoor = tf.MassFlowSource { m_flow = m1, T0 = T1, p0 = p, medium = ma { X = X1 } },
  ret = tf.MassFlowSource { m_flow = m2, T0 = T2, p0 = p, medium = ma { X = X2 } },
  mix = tf.Junction { medium = ma {} },
  sx = tf.MassFractionSensor { medium = ma {} },
  st = tf.TemperatureSensor { medium = ma {} },
  snk = tf.Sink { p0 = p, medium = ma {} },
  connect = { { "outdoor.outlet", "mix.inlet1" }, { "ret.outlet", "mix.inlet2" },
              { "mix.outlet", "sx.inlet" }, { "sx.outlet", "st.inlet" }, { "st.outlet", "snk.inlet" } },
}
local b = lied.build(Box)
b:run { stop = 1, solver = "rk4", dt = 0.1 }
local Xm = (m1 * X1 + m2 * X2) / (m1 + m2)
local hm = (m1 * h_TX(T1, X1) + m2 * h_TX(T2, X2)) / (m1 + m2)
T.near(b:value("mix.outlet.X1"), Xm, 1e-15, "mixing box: X of the mix by mass")
T.near(b:value("sx.X"), Xm, 1e-15, "mixing box: the MassFractionSensor reads it")
T.near(b:value("sx.y"), Xm, 1e-15, "mixing box: ... on its signal output")
T.near(b:value("mix.outlet.h"), hm, 1e-9 * hm, "mixing box: h of the mix by mass")
T.near(b:value("mix.T"), T_hX(hm, Xm), 1e-9, "mixing box: T of the mix at its own X")
T.near(b:value("st.T"), T_hX(hm, Xm), 1e-9, "mixing box: the TemperatureSensor downstream")
T.near(b:value("snk.T"), T_hX(hm, Xm), 1e-9, "mixing box: the Sink")
T.near(b:value("outdoor.outlet.X1"), X1, 0, "a source emits its medium's X")
-- the mixture's temperature is not the mass mean of the temperatures at one X
T.check(math.abs(b:value("mix.T") - T_hX(hm, X2)) > 0.05, "mixing box: X matters for T")

-- 2. two rigid Volumes in a loop, dry and humid at the start; a fan drives
-- the air round (the flows stay >= 0: a reversed flow enters a volume with
-- the content's own X and h, as the energy balance takes it, so only forward
-- flows conserve exactly): the total water and the total mass stay; at the
-- end both hold the mass-weighted mean fraction
local Xa, Xb = 0.004, 0.02
local Loop = lied.model "Loop" {
  a = tf.Volume { V = 1, p0 = 1e5, T0 = 300, medium = ma { X = Xa } },
  b = tf.Volume { V = 0.5, p0 = 1e5, T0 = 300, medium = ma { X = Xb } },
  fan = tf.Fan { dp_max = 200, V_flow_max = 0.5, L = 1e3, medium = ma {} },
  ba = tf.LinearQuadraticDrop { k1 = 1e3, k2 = 0, L = 1e3, medium = ma {} },
  connect = { { "a.outlet", "fan.inlet" }, { "fan.outlet", "b.inlet" },
              { "b.outlet", "ba.inlet" }, { "ba.outlet", "a.inlet" } },
}
local l = lied.build(Loop)
local Ma, Mb = l:value("a.M"), l:value("b.M")
T.near(l:value("a.MX1"), Ma * Xa, 1e-15 * Ma, "loop: the start water of a")
T.near(l:value("a.X1"), Xa, 1e-15, "loop: a starts at its medium's X")
local W0, M0 = l:value("a.MX1") + l:value("b.MX1"), Ma + Mb
local res = l:run { stop = 200, solver = "rk4", dt = 0.01, interval = 1, vars = "a.m_flow,b.m_flow,b.X1" }
local lowest = math.huge
for _, v in ipairs(T.column(res, "a.m_flow")) do lowest = math.min(lowest, v) end
for _, v in ipairs(T.column(res, "b.m_flow")) do lowest = math.min(lowest, v) end
T.check(lowest >= 0, "loop: the flows stay forward")
T.near(l:value("a.m_flow"), l:value("b.m_flow"), 1e-9, "loop: a steady circulation")
T.check(l:value("a.m_flow") > 0.1, "loop: the fan drives it")
local W1, M1 = l:value("a.MX1") + l:value("b.MX1"), l:value("a.M") + l:value("b.M")
T.near(W1, W0, 1e-13 * W0, "loop: the water is conserved")
T.near(M1, M0, 1e-13 * M0, "loop: the mass is conserved")
local Xmean = (Ma * Xa + Mb * Xb) / (Ma + Mb)
T.near(l:value("a.X1"), Xmean, 1e-6 * Xmean, "loop: a ends at the mass-weighted mean")
T.near(l:value("b.X1"), Xmean, 1e-6 * Xmean, "loop: b too")
T.near(l:value("a.X1"), l:value("a.MX1") / l:value("a.M"), 1e-15, "loop: X = MX/M")
local col = T.column(res, "b.X1")
T.check(col[10] < Xb and col[10] > Xmean, "loop: b dries on the way")
-- the content's state at its own X (rho from the ideal-gas mixture)
local sa = ma:state_pTX(l:value("a.p"), l:value("a.T"), l:value("a.X1"))
T.near(sa.rho, l:value("a.rho"), 1e-9 * sa.rho, "loop: a's p, T, rho agree at its X")

-- 3. cooled below the dew point, the fog drained by a Separator that passes
-- the dried air on (outlet = 1) through a pressure drop into a Sink
local Xin = ma:X_phi(p, 303.15, 0.6)
local Q = -0.5 * (ma:h_pTX(p, 303.15, Xin) - ma:h_pTX(p, 283.15, Xin))
local Dry = lied.model "Dry" {
  src = tf.MassFlowSource { m_flow = 0.5, T0 = 303.15, p0 = p, medium = ma { X = Xin } },
  coil = tf.Heater { Q = Q, V = 0.01, T0 = 303.15, medium = ma { X = Xin } },
  sep = tf.Separator { outlet = 1, medium = ma {} },
  drop = tf.LinearQuadraticDrop { k1 = 10, k2 = 0, medium = ma {} },
  snk = tf.Sink { p0 = p, medium = ma {} },
  connect = { { "src.outlet", "coil.inlet" }, { "coil.outlet", "sep.inlet" },
              { "sep.outlet", "drop.inlet" }, { "drop.outlet", "snk.inlet" } },
}
local d = lied.build(Dry)
d:run { stop = 20, solver = "esdirk23", tol = 1e-9 }
local Xl = ma:X_liquid_phX(p, d:value("coil.outlet.h"), Xin)
T.check(Xl > 0.005, "separator: fog arrives")
T.near(d:value("sep.m_cond"), 0.5 * Xl, 1e-12, "separator: m_cond = m Xl")
T.near(d:value("sep.outlet.m_flow"), 0.5 * (1 - Xl), 1e-12, "separator: the air goes on")
local Xo = d:value("sep.outlet.X1")
T.near(Xo, (Xin - Xl) / (1 - Xl), 1e-14, "separator: X_out = Xv/(1 - Xl)")
T.near(d:value("sep.outlet.m_flow") * Xo + d:value("sep.m_cond"), 0.5 * Xin, 1e-14,
  "separator: the water adds up")
T.near(d:value("sep.outlet.m_flow") * d:value("sep.outlet.h") + d:value("sep.H_cond"),
  0.5 * d:value("coil.outlet.h"), 1e-9, "separator: the enthalpy flows add up")
T.near(d:value("snk.T"), 283.15, 1e-6, "separator: the dried air leaves at 10 degC")
T.near(ma:phi(p, d:value("snk.T"), Xo), 1, 1e-9, "separator: ... saturated")
T.near(d:value("drop.outlet.X1"), Xo, 0, "a pressure drop passes X")

-- 4. lane forms: copies of different humidity (a per-copy medium) give the
-- same bits with lanes on and off
local Cell = lied.model "Cell" {
  parameters = { X = 0.01 },
  src = tf.MassFlowSource { m_flow = 0.1, T0 = 300, p0 = p, medium = function(q) return ma { X = q.X } end },
  h = tf.Heater { Q = -3000, V = 0.01, T0 = 300, medium = ma {} },
  c = tf.ConductionElement { V = 0.01, T0 = 300, medium = ma {} },
  snk = tf.Sink { p0 = p, medium = ma {} },
  connect = { { "src.outlet", "h.inlet" }, { "h.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" } },
}
local Cells = lied.model "Cells" { e = lied.array(Cell, 40, { X = function(i) return 0.002 + 0.0005 * i end }) }
T.check(lied.build(Cells):info().lanes, "cells: the copies run in lane form")
local ra, sta = lied.build(Cells):run { stop = 5, solver = "rk4", dt = 0.01, lanes = true, vars = "*" }
local rb = lied.build(Cells):run { stop = 5, solver = "rk4", dt = 0.01, lanes = false, vars = "*" }
T.check(sta.lanes, "cells: fused steps in lane form")
local diff = 0
for _, name in ipairs(T.names(ra)) do
  local ca, cb = T.column(ra, name), T.column(rb, name)
  for i = 1, #ca do if ca[i] ~= cb[i] then diff = diff + 1 end end
end
T.eq(diff, 0, "cells: lanes on and off give the same bits")
T.near(T.column(ra, "e[7].snk.inlet.X1")[1], 0.002 + 0.0035, 1e-17, "cells: copy 7 carries its X")
local c7 = lied.build(Cells)
c7:run { stop = 5, solver = "rk4", dt = 0.01 }
T.near(c7:value("e[7].c.T"), ma:T_phX(p, c7:value("e[7].c.h"), 0.0055), 1e-9,
  "cells: copy 7's T at its own X")

-- 5. ports without X: media of one substance have no X1 variables
local Water = lied.model "Water" {
  src = tf.Source { p0 = 2e5, L = 1 },
  snk = tf.Sink { p0 = 1e5 },
  connect = { { "src.outlet", "snk.inlet" } },
}
local names = {}
for _, v in ipairs(lied.build(Water):vars()) do names[#names + 1] = v.name or v[1] end
local joined = table.concat(names, " ")
T.check(joined:find("src.outlet.p", 1, true), "water: the port's variables are listed")
T.check(not joined:find("X1", 1, true), "water: no X1 variables: " .. joined)

-- 6. refusals
T.raises(function()
  lied.build(lied.model "WaterIntoAir" {
    src = tf.Source { p0 = 2e5, L = 1 },
    snk = tf.Sink { p0 = 1e5, medium = ma { X = 0.01 } },
    connect = { { "src.outlet", "snk.inlet" } },
  })
end, { "connect {\"src.outlet\", \"snk.inlet\"}", "snk.inlet reads the signal X (X1) of the thermofluid connection, which src.outlet does not have" },
  "an inlet of moist air fed by water", "model")
T.raises(function()
  lied.build(lied.model "XOfWater" {
    src = tf.Source { p0 = 2e5, L = 1 },
    s = tf.MassFractionSensor {},
    snk = tf.Sink { p0 = 1e5 },
    connect = { { "src.outlet", "s.inlet" }, { "s.outlet", "snk.inlet" } },
  })
end, { "s", "the medium (liquid) has no mass fractions" }, "a MassFractionSensor on water")
T.raises(function()
  lied.build(lied.model "K2" {
    src = tf.Source { p0 = 2e5, L = 1, medium = ma { X = 0.01 } },
    s = tf.MassFractionSensor { k = 2, medium = ma {} },
    snk = tf.Sink { p0 = 1e5, medium = ma {} },
    connect = { { "src.outlet", "s.inlet" }, { "s.outlet", "snk.inlet" } },
  })
end, { "s", "k" }, "k beyond the stream's fractions")
T.raises(function()
  lied.build(lied.model "AirTank" {
    t = tf.TankOut { medium = ma { X = 0.01 } },
    snk = tf.Sink { p0 = 1e5, medium = ma {} },
    connect = { { "t.outlet", "snk.inlet" } },
  })
end, { "t", "an open tank holds a liquid: moist air (a medium with mass fractions) is not one" },
  "a tank of moist air")
T.raises(function()
  lied.build(lied.model "Mixed" { e = lied.array(Cell, 3, { X = function(i) return i == 2 and -1 or 0.01 end }) })
end, { "e[2]", "moist air water fraction X = -1 must be in [0, 1)" }, "a copy's medium out of range")

T.done()
