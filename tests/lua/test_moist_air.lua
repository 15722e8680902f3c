-- Moist air (tf.moist_air, src/lib/thermofluid/moist_air.c; docs/media.md):
-- the psychrometric textbook example, the defining relations (saturation
-- humidity ratio, dew point, round trips through h and through fog), the
-- medium in a Heater that cools below the dew point and in a heated rigid
-- Volume whose fog evaporates, and every refusal with its message.
local lied = require "lied"
local tf = require "lied.thermofluid"
local T = require "tests.testing"
local ma = tf.moist_air
local p = 101325

-- 30 degC, 50 % at 1 atm (Cengel and Boles, Thermodynamics, the psychrometric
-- example: humidity ratio 0.0133, h = 64.2 kJ/kg dry air, dew point 18.4 degC)
local X = ma:X_phi(p, 303.15, 0.5)
T.near(X / (1 - X), 0.0133, 0.5e-4, "humidity ratio at 30 degC, 50 %")
T.near(ma:h_pTX(p, 303.15, X) / (1 - X) / 1e3, 64.2, 0.05, "enthalpy per kg dry air")
T.near(ma:T_dew(p, X) - 273.15, 18.4, 0.05, "dew point")
T.near(ma:phi(p, 303.15, X), 0.5, 1e-12, "phi(X_phi(0.5)) = 0.5")

-- definitions: saturation humidity ratio from IF97's psat, phi = 1 at the dew point
local ps = tf.steam:psat(303.15)
T.near(ma:x_sat(p, 303.15), 0.621945 * ps / (p - ps), 1e-6 * 0.0272, "x_sat = 0.621945 psat/(p - psat)")
local Td = ma:T_dew(p, X)
T.near(ma:phi(p, Td, X), 1, 1e-9, "phi = 1 at the dew point")
T.eq(ma:X_liquid(p, Td + 1e-6, X), 0, "no fog above the dew point")
T.check(ma:X_liquid(p, Td - 1, X) > 0, "fog below the dew point")
local st = ma:state_pTX(p, 285, X)
T.near(st.Xv + st.Xl, X, 1e-15, "vapour and fog add up to the water")
T.near(st.Xv / (1 - X), ma:x_sat(p, 285), 1e-12, "the vapour is saturated when there is fog")
T.near(st.phi, 1, 1e-14, "saturated: phi = 1")
-- round trips through h, without and with fog
for _, Tk in ipairs { 273.15, 280, 285, 290, 291.5, 300, 350, 450 } do
  local h = ma:h_pTX(p, Tk, X)
  T.near(ma:T_phX(p, h, X), Tk, 1e-9, "T_phX(h_pTX(T)) at " .. Tk)
end
T.near(ma:rho_pTX(p, 293.15, 0), p / (461.524 * 0.621945 * 293.15), 1e-12, "dry air density")
-- a deterministic random sweep: (p, T, X) -> h -> T back, with and without fog
local seed, worst, fog = 12345, 0, 0
local function uniform()
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
end
for _ = 1, 2000 do
  local pp, Tk, XX = 5e4 + 1.5e5 * uniform(), 273.15 + 150 * uniform(), 0.1 * uniform()
  local s3 = ma:state_pTX(pp, Tk, XX)
  if s3.Xl > 0 then fog = fog + 1 end
  worst = math.max(worst, math.abs(ma:T_phX(pp, s3.h, XX) - Tk) / Tk)
end
T.check(worst <= 1e-11, string.format("random sweep: T_phX(h_pTX(T)) = T (worst %.2e)", worst))
T.check(fog > 200, "random sweep: states with fog: " .. fog)

-- a Heater cools the air below its dew point: fog forms, T = T(p, h, X)
local Xa = ma:X_phi(p, 303.15, 0.6)
local air = ma { X = Xa }
local Q = -0.5 * (ma:h_pTX(p, 303.15, Xa) - ma:h_pTX(p, 283.15, Xa))
local Cool = lied.model "Cool" {
  src = tf.MassFlowSource { m_flow = 0.5, T0 = 303.15, p0 = p, medium = air },
  coil = tf.Heater { Q = Q, V = 0.01, T0 = 303.15, medium = air },
  snk = tf.Sink { p0 = p, medium = air },
  connect = { { "src.outlet", "coil.inlet" }, { "coil.outlet", "snk.inlet" } },
}
local m = lied.build(Cool)
m:run { stop = 20, solver = "esdirk23", tol = 1e-9 }
T.near(m:value("coil.T"), 283.15, 1e-6, "cooled to 10 degC (the energy balance through fog)")
T.check(ma:X_liquid(p, 283.15, Xa) > 0.005, "most of the water above 10 degC saturation is fog")

-- a rigid Volume of saturated air with fog, heated: the fog evaporates;
-- closed loop through a shut valve: the mass stays, U grows by Q t, and
-- p, T, rho, h of the content satisfy the moist-air laws
local wet = ma { X = 0.02 }
local Box = lied.model "Box" {
  box = tf.Volume { V = 1, p0 = p, T0 = 288.15, Q = 100, L = 1e3, medium = wet },
  shut = tf.Valve { L = 1e3, medium = wet },
  zero = tf.Constant { k = 0 },
  connect = { { "box.outlet", "shut.inlet" }, { "shut.outlet", "box.inlet" }, { "zero.y", "shut.opening" } },
}
m = lied.build(Box)
local M0, U0 = m:value("box.M"), m:value("box.U")
T.check(ma:X_liquid(p, 288.15, 0.02) > 0, "fog at the start")
m:run { stop = 600, solver = "rk4", dt = 0.1 }
T.near(m:value("box.M"), M0, 1e-12 * M0, "box: mass conserved")
T.near(m:value("box.U"), U0 + 100 * 600, 1e-9 * (U0 + 6e4), "box: U grows by Q t")
local s2 = ma:state_pTX(m:value("box.p"), m:value("box.T"), 0.02)
T.near(s2.rho, m:value("box.rho"), 1e-9 * s2.rho, "box: rho = p / (R T) of the gas")
T.near(s2.h, m:value("box.h"), 1e-6, "box: h of the content")
T.check(m:value("box.T") > 288.15 + 10, "box: warmer")

-- refusals
T.raises(function() return ma:phi(p, 150, X) end,
  { "tf.moist_air:phi: moist air: p = 101325 Pa, T = 150 K, X = ", "T is outside [200 K, 623.15 K]" },
  "below 200 K")
T.raises(function() return ma:phi(p, 300, 1) end, { "the water fraction X must be in [0, 1)" }, "X = 1")
T.raises(function() return ma:phi(-1, 300, 0.01) end, { "p must be > 0" }, "p < 0")
T.raises(function() return ma:T_phX(p, -1e6, 0.01) end, { "h = -1000000 J/kg", "below 200 K" }, "h too low")
T.raises(function() return ma:T_dew(p, 1e-9) end, { "tf.moist_air:T_dew:", "the frost point is below 200 K" }, "frost point")
T.raises(function() return ma:X_phi(p, 300, 1.5) end, { "phi must be in [0, 1]" }, "phi > 1")
T.raises(function() return ma:phi(p, "warm", 0.01) end, { "number expected, got string" }, "string T")
T.raises(function() return ma { Y = 1 } end, { "tf.moist_air has no constant 'Y' (known: X)" }, "unknown constant")
T.raises(function()
  lied.build(lied.model "BadAir" {
    src = tf.Source { p0 = p, T0 = 300, medium = ma { X = 1.5 }, L = 1 },
    snk = tf.Sink { p0 = p },
    connect = { { "src.outlet", "snk.inlet" } },
  })
end, { "src", "moist air water fraction X = 1.5 must be in [0, 1)" }, "X out of range in a component")
T.raises(function()
  lied.build(lied.model "ColdAir" {
    src = tf.Source { p0 = p, T0 = 190, medium = ma { X = 0.001 }, L = 1 },
    snk = tf.Sink { p0 = p },
    connect = { { "src.outlet", "snk.inlet" } },
  })
end, { "src", "state (p0, T0): moist air: p = 101325 Pa, T = 190 K" }, "start state below 200 K")
T.done()
