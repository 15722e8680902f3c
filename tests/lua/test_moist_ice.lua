-- Ice in moist air (tf.moist_air and tf.moist_air_nasa; docs/media.md,
-- "Ice"): the Lua calls (X_ice, the state's Xi), a Heater that cools humid
-- air below 0 degC to a temperature set by its closed-form energy balance
-- (the condensate freezes), a Separator that drains the ice with the
-- enthalpy it carries, and a rigid Volume of frosted air warmed through the
-- triple point (mass and energy conserved, its T held at 273.16 K while
-- the ice melts).
local lied = require "lied"
local tf = require "lied.thermofluid"
local T = require "tests.testing"
local p = 101325

for _, ma in ipairs { tf.moist_air, tf.moist_air_nasa } do
  local name = ma == tf.moist_air and "tf.moist_air" or "tf.moist_air_nasa"
  -- the calls: ice below the triple point, liquid above, the state's parts
  local X = 0.008
  local s = ma:state_pTX(p, 263.15, X)
  T.check(s.Xi > 0 and s.Xl == 0, name .. ": ice at -10 degC")
  T.near(s.Xv + s.Xl + s.Xi, X, 1e-17, name .. ": vapour, liquid and ice add up to the water")
  T.eq(ma:X_ice(p, 263.15, X), s.Xi, name .. ": X_ice")
  T.near(ma:X_ice_phX(p, s.h, X), s.Xi, 1e-12 * X, name .. ": X_ice_phX")
  T.near(ma:T_phX(p, s.h, X), 263.15, 1e-10, name .. ": T_phX with ice")
  T.check(ma:X_ice(p, 283.15, X) == 0 and ma:X_liquid(p, 283.15, X) > 0, name .. ": fog at 10 degC")
  -- on the triple point: between all liquid and all ice
  local hL = ma:h_pTX(p, 273.16, X)
  local Xc = ma:X_liquid(p, 273.16, X)
  local hm = hL - 0.25 * Xc * 333444.866
  T.eq(ma:T_phX(p, hm, X), 273.16, name .. ": a quarter frozen at 273.16 K")
  T.near(ma:X_ice_phX(p, hm, X), 0.25 * Xc, 1e-12 * Xc, name .. ": the ice by the lever rule")

  -- a Heater cools air of 80 % relative humidity at 20 degC to -10 degC:
  -- at steady state h_out = h_in + Q/m, so Q = m (h(-10 degC) - h_in) gives
  -- exactly -10 degC; the Separator drains the ice and the air goes on
  local Xa = ma:X_phi(p, 293.15, 0.8)
  local air = ma { X = Xa }
  local m_flow = 0.2
  local h_in, h_out = ma:h_pTX(p, 293.15, Xa), ma:h_pTX(p, 263.15, Xa)
  local Q = m_flow * (h_out - h_in)
  local Freeze = lied.model "Freeze" {
    src = tf.MassFlowSource { m_flow = m_flow, T0 = 293.15, p0 = p, medium = air },
    coil = tf.Heater { Q = Q, V = 0.005, T0 = 293.15, medium = air },
    sep = tf.Separator { outlet = 1, medium = air },
    snk = tf.Sink { p0 = p, medium = air },
    connect = { { "src.outlet", "coil.inlet" }, { "coil.outlet", "sep.inlet" }, { "sep.outlet", "snk.inlet" } },
  }
  local m = lied.build(Freeze)
  m:run { stop = 30, solver = "esdirk23", tol = 1e-10 }
  T.near(m:value("coil.T"), 263.15, 1e-6, name .. ": cooled to -10 degC (the balance through fog and ice)")
  local st = ma:state_phX(p, h_out, Xa)
  T.near(m:value("sep.m_cond"), m_flow * st.Xi, 1e-9 * m_flow * st.Xi, name .. ": the ice drained")
  local H_in = m_flow * m:value("sep.inlet.h")
  T.near(m:value("sep.H_cond") + m:value("sep.H_air"), H_in, 1e-9 * math.abs(H_in) + 1e-9,
    name .. ": the condensate's and the air's enthalpy flows add up to the inflow's")
  T.near(m:value("sep.outlet.X1"), st.Xv / (1 - st.Xi), 1e-12, name .. ": the air goes on with its vapour")
  T.near(m:value("sep.T"), 263.15, 1e-6, name .. ": the separator at -10 degC")
end

-- a rigid Volume of frosted air (X = 0.02 at -5 degC), heated through the
-- triple point: the mass stays, U grows by Q t, and T stays at 273.16 K
-- while the ice melts
for _, ma in ipairs { tf.moist_air, tf.moist_air_nasa } do
  local wet = ma { X = 0.02 }
  local Box = lied.model "Box" {
    box = tf.Volume { V = 1, p0 = p, T0 = 268.15, Q = 200, L = 1e3, medium = wet },
    shut = tf.Valve { L = 1e3, medium = wet },
    zero = tf.Constant { k = 0 },
    connect = { { "box.outlet", "shut.inlet" }, { "shut.outlet", "box.inlet" }, { "zero.y", "shut.opening" } },
  }
  local m = lied.build(Box)
  local M0, U0 = m:value("box.M"), m:value("box.U")
  local res = m:run { stop = 600, solver = "rk4", dt = 0.1, vars = "box.T,box.U" }
  T.near(m:value("box.M"), M0, 1e-12 * M0, "box: mass conserved")
  T.near(m:value("box.U"), U0 + 200 * 600, 1e-9 * math.abs(U0 + 1.2e5), "box: U grows by Q t")
  local Tc = res:column("box.T")
  local plateau, ok = 0, true
  for i = 2, #Tc do
    ok = ok and Tc[i] >= Tc[i - 1] - 1e-9
    if Tc[i] == 273.16 then plateau = plateau + 1 end
  end
  T.check(ok, "box: T rises")
  T.check(plateau > 10, "box: T held at 273.16 K while the ice melts (" .. plateau .. " outputs)")
  T.check(Tc[#Tc] > 274, "box: above 0 degC at the end")
end
T.done()
