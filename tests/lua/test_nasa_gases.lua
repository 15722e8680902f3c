-- The ideal gases of NASA polynomials through Lua (docs/media.md, "Ideal
-- gases"): the methods against the independent evaluation of
-- tests/nasa_ref.lua (every species, and dry air), the mixing rules of dry air (entropy of mixing included),
-- combustion products by their element balance, the constructors' and
-- methods' refusals, moist air on the same basis, and the media in
-- components (a heated rigid volume's energy, a heater's outlet, a
-- counter-flow exchanger's balance).
local lied = require "lied"
local tf = require "lied.thermofluid"
local T = require "tests.testing"

-- 1. The methods against the evaluation of tests/nasa_ref.lua (written
-- apart from the library), every species, over the range.
local ref = require "tests.nasa_ref"
local Ru = 8.314510
local worst = 0
for sp in pairs(ref.species) do
  local g = tf.ideal_gas { [sp] = 1 }
  for Tk = 200, 6000, 97 do
    local cp, h, s = ref.pure(sp, Tk)
    worst = math.max(worst, math.abs(g:cp_T(Tk) / cp - 1), math.abs(g:s_pT(1e5, Tk) / s - 1),
      math.abs(g:h_T(Tk) - h) / (cp * Tk))
  end
end
print(string.format("against tests/nasa_ref.lua: worst %.2e", worst))
T.check(worst < 1e-13, "cp, h, s of every species as nasa_ref.lua evaluates them: " .. worst)
local air_ref = ref.dry_air()
for _, Tk in ipairs { 250, 700, 2500 } do
  T.near(tf.air:h_T(Tk), air_ref.h(Tk), 1e-9 * air_ref.cp(Tk) * Tk, "dry air h as nasa_ref.lua")
  T.near(tf.air:s_pT(3e5, Tk), air_ref.s(3e5, Tk), 1e-12 * air_ref.s(3e5, Tk), "dry air s as nasa_ref.lua")
end

-- 2. Dry air by the mixing rules: cp, h by mass; s at the partial pressures.
local names = { "N2", "O2", "Ar", "CO2", "H2O" }
local Y, M, n = {}, {}, 0
for i, sp in ipairs(tf.air:species()) do M[i] = sp.M end
for i = 1, 5 do Y[i] = tf.air[i + 1]; n = n + Y[i] / M[i] end
T.near(1 / n, 0.02896477, 1e-8, "molar mass of dry air")
T.near(tf.air:R(), Ru * n, 1e-10, "R of dry air")
for _, Tk in ipairs { 220, 300, 750, 1000, 1800, 4000 } do
  local cp, h, s = 0, 0, 0
  for i = 1, 5 do
    if Y[i] > 0 then
      local g = tf.ideal_gas { [names[i]] = 1 }
      local x = Y[i] / M[i] / n
      cp, h = cp + Y[i] * g:cp_T(Tk), h + Y[i] * g:h_T(Tk)
      s = s + Y[i] * g:s_pT(x * 2e5, Tk)
    end
  end
  T.near(tf.air:cp_T(Tk), cp, 1e-12 * cp, "air cp by mass at " .. Tk)
  T.near(tf.air:h_T(Tk), h, 1e-9 * math.abs(h) + 1e-9, "air h by mass at " .. Tk)
  T.near(tf.air:s_pT(2e5, Tk), s, 1e-12 * s, "air s at the partial pressures at " .. Tk)
end
T.near(tf.air:h_T(298.15), 0, 1e-3, "h = 0 at 298.15 K (the formation enthalpies left out)")
-- inverses and the gas law
T.near(tf.air:T_h(tf.air:h_T(1234.5)), 1234.5, 1e-10, "T_h")
T.near(tf.air:T_u(tf.air:u_T(345.6)), 345.6, 1e-10, "T_u")
T.near(tf.air:T_ps(3e5, tf.air:s_pT(3e5, 876.5)), 876.5, 1e-10, "T_ps")
T.near(tf.air:h_ps(3e5, tf.air:s_pT(3e5, 876.5)), tf.air:h_T(876.5), 1e-6, "h_ps")
T.near(tf.air:rho_pT(1e5, 300), 1e5 / (tf.air:R() * 300), 1e-13, "rho_pT")
T.near(tf.air:u_T(500), tf.air:h_T(500) - tf.air:R() * 500, 1e-9, "u = h - R T")
-- mole fractions
local g = tf.ideal_gas { N2 = 0.79, O2 = 0.21, mole = true }
T.near(g[2] / g[3], 0.79 * M[1] / (0.21 * M[2]), 1e-14, "mole fractions to mass fractions")
T.near(g[2] + g[3], 1, 1e-15, "normalised")

-- 3. Combustion products: the atoms of fuel and air are those of the products.
local far, c, h = 0.021, 12, 23
local p = tf.combustion_products { fuel = { C = c, H = h }, far = far }
local Mf = (c * 12.0107 + h * 1.00794) * 1e-3
local function atoms(v, scale) -- per kg of the gas v, times scale: C, H, O, N, Ar
  local nN2, nO2, nAr, nCO2, nH2O = v[2] / M[1], v[3] / M[2], v[4] / M[3], v[5] / M[4], v[6] / M[5]
  return { scale * nCO2, scale * 2 * nH2O, scale * (2 * nO2 + 2 * nCO2 + nH2O), scale * 2 * nN2,
           scale * nAr }
end
local a_air, a_p = atoms(tf.air, 1), atoms(p, 1 + far)
local nf = far / Mf
T.near(a_p[1], a_air[1] + c * nf, 1e-12, "carbon balance")
T.near(a_p[2], a_air[2] + h * nf, 1e-12, "hydrogen balance")
for k = 3, 5 do T.near(a_p[k], a_air[k], 1e-12, "O, N, Ar balance " .. k) end
local st = tf.combustion_products { fuel = { C = 1, H = 4 }, phi = 1 }
T.near(st[3], 0, 1e-12, "stoichiometric methane: no oxygen left")
T.check(st:cp_T(1500) > tf.air:cp_T(1500), "products hold more heat than air")

-- 4. Refusals
T.raises(function() return tf.ideal_gas { Ne = 1 } end,
  "tf.ideal_gas has no species 'Ne' (known: N2, O2, Ar, CO2, H2O)", "unknown species")
T.raises(function() return tf.ideal_gas { N2 = -1 } end, "the fraction of N2 must be a number >= 0",
  "negative fraction")
T.raises(function() return tf.ideal_gas {} end, "the fractions sum to 0", "no species")
T.raises(function() return tf.combustion_products { fuel = { C = 1, H = 4 }, far = 0.1 } end,
  "richer than stoichiometric", "rich mixture")
T.raises(function() return tf.air:T_h(1e9) end,
  "ideal gas:T_h: h = 1e+09: outside 200 K .. 6000 K", "T_h above the range")
T.raises(function() return tf.air:cp_T(150) end, "ideal gas:cp_T: T = 150: outside 200 K .. 6000 K",
  "cp below the range")
T.raises(function() return tf.air:s_pT(0, 300) end, "ideal gas:s_pT: p = 0 Pa must be > 0",
  "zero pressure")
T.raises(function() return tf.air:T_h(0 / 0) end, "h = nan: not a finite number", "NaN")
T.raises(function() return tf.air.h_T(300) end, "bad argument", "a dot, not a colon")

-- 5. Moist air on the NASA basis: the same methods as tf.moist_air
local X = tf.moist_air_nasa:X_phi(101325, 303.15, 0.5)
T.near(tf.moist_air_nasa:phi(101325, 303.15, X), 0.5, 1e-12, "X_phi and phi")
T.near(tf.moist_air_nasa:T_dew(101325, X), tf.moist_air:T_dew(101325, X), 0.01,
  "the same dew point as tf.moist_air (the molar masses differ slightly)")
local hw = tf.moist_air_nasa:h_pTX(1e5, 330, 0.02)
T.near(hw, 0.98 * tf.air:h_T(330) + 0.02 * tf.ideal_gas { H2O = 1 }:h_T(330), 1e-6,
  "unsaturated: dry air and vapour by mass")
T.near(tf.moist_air_nasa:T_phX(1e5, hw, 0.02), 330, 1e-10, "T_phX")
T.check(tf.moist_air_nasa:X_liquid(1e5, 285, 0.02) > 0, "fog at 285 K")
T.check(tf.moist_air_nasa:X_ice(1e5, 260, 0.02) > 0 and tf.moist_air_nasa:X_liquid(1e5, 260, 0.02) == 0,
  "ice at 260 K")
T.raises(function() return tf.moist_air_nasa:h_pTX(1e5, 199, 0.02) end,
  "tf.moist_air_nasa:h_pTX: moist air (NASA): p = 100000 Pa, T = 199 K, X = 0.02: T is outside [200 K, 6000 K]",
  "below 200 K")

-- 6. In components. A closed rigid Volume of air (its outlet back to its
-- inlet through a pipe: no flow) heated by Q: U = M u(T) grows by Q t.
do
  local V, Q, T0, p0 = 0.5, 2000, 300, 2e5
  local M = lied.model "HeatedTank" {
    v = tf.Volume { V = V, p0 = p0, T0 = T0, Q = Q, medium = tf.air },
    pipe = tf.LinearQuadraticDrop { k1 = 1e3, k2 = 0, L = 100, medium = tf.air },
    connect = { { "v.outlet", "pipe.inlet" }, { "pipe.outlet", "v.inlet" } },
  }
  local res, _, err = lied.build(M):run { stop = 10, solver = "rk4", dt = 0.01,
    vars = "v.M,v.U,v.T,v.p" }
  T.check(not err, "closed volume runs: " .. tostring(err))
  local n = res:nrows()
  local Mv, U, Tv = T.column(res, "v.M")[n], T.column(res, "v.U")[n], T.column(res, "v.T")[n]
  T.near(Mv, T.column(res, "v.M")[1], 1e-12, "closed: mass kept")
  T.near(U, T.column(res, "v.U")[1] + Q * 10, 1e-8 * Q * 10, "volume energy grows by Q t")
  T.near(U / Mv, tf.air:u_T(Tv), 1e-6, "U/M = u(T) of the NASA air")
  T.near(T.column(res, "v.p")[n], Mv / V * tf.air:R() * Tv, 1e-6 * p0, "p = rho R T")
  T.check(Tv > T0 + 10, "heated")
end
-- A Heater passes a stream of products: h_out = h_in + Q/m at steady state.
do
  local gas = tf.combustion_products { fuel = { C = 12, H = 23 }, far = 0.015 }
  local m, Q, Tin = 0.4, 1.5e5, 900
  local M = lied.model "Hot" {
    src = tf.MassFlowSource { m_flow = m, T0 = Tin, p0 = 5e5, medium = gas },
    heat = tf.Heater { Q = Q, V = 1e-4, T0 = Tin, p0 = 5e5, medium = gas },
    snk = tf.Sink { p0 = 5e5, medium = gas, L = 1 },
    connect = { { "src.outlet", "heat.inlet" }, { "heat.outlet", "snk.inlet" } },
  }
  local res, _, err = lied.build(M):run { stop = 2, solver = "dopri45", tol = 1e-10, vars = "heat.T" }
  T.check(not err, "heater runs: " .. tostring(err))
  T.near(T.column(res, "heat.T")[res:nrows()], gas:T_h(gas:h_T(Tin) + Q / m), 1e-6,
    "heater outlet T from h_in + Q/m")
end
-- A counter-flow exchanger between air and products: the heat leaving one
-- stream enters the other.
do
  local gas = tf.combustion_products { fuel = { C = 1, H = 4 }, phi = 0.3 }
  local M = lied.model "HX" {
    a = tf.MassFlowSource { m_flow = 0.3, T0 = 1100, p0 = 1e5, medium = gas },
    b = tf.MassFlowSource { m_flow = 0.5, T0 = 300, p0 = 3e5, medium = tf.air },
    hx = tf.CounterFlowHX { N = 8, UA = 600, medium_a = gas, medium_b = tf.air, T0_a = 1100,
                            T0_b = 300, p0_a = 1e5, p0_b = 3e5, V_a = 1e-4, V_b = 1e-4 },
    ka = tf.Sink { p0 = 1e5, medium = gas, L = 1 }, kb = tf.Sink { p0 = 3e5, medium = tf.air, L = 1 },
    connect = { { "a.outlet", "hx.inlet_a" }, { "hx.outlet_a", "ka.inlet" },
                { "b.outlet", "hx.inlet_b" }, { "hx.outlet_b", "kb.inlet" } },
  }
  local res, _, err = lied.build(M):run { stop = 5, solver = "esdirk23", tol = 1e-9,
    vars = "hx.T_a,hx.T_b,hx.Q_flow" }
  T.check(not err, "exchanger runs: " .. tostring(err))
  local n = res:nrows()
  local Ta, Tb, Qf = T.column(res, "hx.T_a")[n], T.column(res, "hx.T_b")[n], T.column(res, "hx.Q_flow")[n]
  T.near(0.3 * (gas:h_T(1100) - gas:h_T(Ta)), Qf, 1e-5 * Qf, "heat out of the products")
  T.near(0.5 * (tf.air:h_T(Tb) - tf.air:h_T(300)), Qf, 1e-5 * Qf, "heat into the air")
  T.check(Ta < 1100 and Tb > 300 and Tb < 1100, "temperatures between the inlets")
end

os.exit(T.done())
