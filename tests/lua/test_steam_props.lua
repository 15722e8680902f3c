-- tf.steam's property calls from Lua (docs/media.md): the names the issue
-- asks for, values against the IAPWS-IF97 release's verification tables,
-- two-phase states, and every refusal with its message.
local tf = require "lied.thermofluid"
local T = require "tests.testing"
local steam = tf.steam

-- release Table 5 (region 1, 3 MPa, 300 K) and Table 15 (region 2, 3.5 kPa, 300 K)
T.near(steam:h_pT(3e6, 300), 115.331273e3, 0.5e-3, "h_pT region 1")
T.near(1 / steam:rho_pT(3e6, 300), 0.100215168e-2, 0.5e-11, "v region 1")
T.near(steam:h_pT(3500, 300), 2549.91145e3, 0.5e-2, "h_pT region 2")
T.near(steam:T_ph(3e6, steam:h_pT(3e6, 300)), 300, 1e-10, "T_ph inverts h_pT")
T.near(steam:T_ph(30e6, steam:h_pT(30e6, 700)), 700, 1e-10, "T_ph region 2 at 30 MPa")
T.near(steam:T_ph(0.5e6, steam:h_pT(0.5e6, 1500)), 1500, 1e-9, "T_ph region 5")
-- Tables 35, 36: saturation
T.near(steam:Tsat(1e6), 453.035632, 0.5e-6, "Tsat(1 MPa)")
T.near(steam:psat(500), 2.63889776e6, 0.5e-2, "psat(500 K)")
-- a two-phase state at 1 bar: T = Tsat, quality and density by the lever rule
local Ts = steam:Tsat(1e5)
local hl, hv = steam:h_pT(1e5, Ts - 1e-9), steam:h_pT(1e5, Ts + 1e-9)
local h = hl + 0.25 * (hv - hl)
T.near(steam:T_ph(1e5, h), Ts, 1e-9, "two-phase T = Tsat")
T.near(steam:x_ph(1e5, h), 0.25, 1e-9, "two-phase quality")
local vl, vv = 1 / steam:rho_pT(1e5, Ts - 1e-9), 1 / steam:rho_pT(1e5, Ts + 1e-9)
T.near(1 / steam:rho_ph(1e5, h), 0.75 * vl + 0.25 * vv, 1e-9 * vv, "two-phase density")
T.eq(steam:x_ph(1e5, hl - 1e4), 0, "x of a subcooled liquid")
T.eq(steam:x_ph(1e5, hv + 1e4), 1, "x of a superheated vapour")
local st = steam:state_ph(1e5, h)
T.eq(st.region, 4, "state_ph region")
T.near(st.p, 1e5, 0, "state_ph p")
-- (rho, u): a rigid volume's content
local rho, u = steam:rho_ph(1e5, h), steam:u_ph(1e5, h)
T.near(steam:p_rhou(rho, u), 1e5, 1e-4, "p from (rho, u)")
T.near(steam:x_rhou(rho, u), 0.25, 1e-9, "x from (rho, u)")
T.near(steam:T_ps(3e6, steam:s_pT(3e6, 500)), 500, 1e-9, "T_ps")
T.eq(tostring(steam), "tf.steam (IAPWS-IF97)", "tostring")

-- refusals: out of range names the state, never NaN
T.raises(function() return steam:T_ph(1e5, -1e6) end,
  { "tf.steam:T_ph: IF97: p = 100000 Pa, h = -1000000 J/kg: below 273.15 K" }, "h too low")
T.raises(function() return steam:T_ph(2e8, 1e6) end,
  { "tf.steam:T_ph: IF97: p = 200000000 Pa", "p is outside (0, 100 MPa]" }, "p too high")
T.raises(function() return steam:T_ph(1e5, 9e6) end, { "above 2273.15 K" }, "h too high")
-- region 3 (near the critical point): the state python3-iapws's basic
-- equation of region 3 puts at p = 25 MPa, h = 2 MJ/kg (to 1e-13)
T.near(steam:rho_ph(25e6, 2e6), 408.40558027976, 1e-9, "region 3: rho(25 MPa, 2 MJ/kg)")
T.near(steam:T_ph(25e6, 2e6), 655.34434568001, 1e-9, "region 3: T(25 MPa, 2 MJ/kg)")
T.eq(steam:state_ph(25e6, 2e6).region, 3, "region 3: the region")
T.raises(function() return steam:p_rhou(900, 1.6e6) end, { "tf.steam:p_rhou:", "above 100 MPa" },
  "denser than region 3 above 623.15 K")
T.raises(function() return steam:h_pT(1e5, 200) end,
  { "tf.steam:h_pT: IF97: p = 100000 Pa, T = 200 K: T is outside [273.15 K, 2273.15 K]" }, "T too low")
T.raises(function() return steam:Tsat(3e7) end,
  { "tf.steam:Tsat: IF97: Tsat(p = 30000000 Pa) is defined for 611.213 Pa <= p <= 22.064 MPa" },
  "Tsat above the critical point")
T.raises(function() return steam:psat(200) end, { "tf.steam:psat: IF97: psat(T = 200 K)" }, "psat")
T.raises(function() return steam:x_ph(0 / 0, 1e6) end, { "not a finite number" }, "NaN p")
T.raises(function() return steam:cp_ph(1e5, h) end,
  { "tf.steam:cp_ph:", "is a two-phase state (x = 0.25), where cp is not defined" }, "cp two-phase")
T.raises(function() return steam:p_rhou(-1, 1e5) end, { "the density must be > 0" }, "rho <= 0")
-- non-numbers and a call without the colon
T.raises(function() return steam:T_ph("1e5x", 1e6) end, { "bad argument #1", "number expected, got string" },
  "string p")
T.raises(function() return steam:T_ph(1e5) end, { "bad argument #2", "number expected, got no value" },
  "missing h")
T.raises(function() return steam:Tsat({}) end, { "number expected, got table" }, "table p")
T.raises(function() return steam.T_ph(1e5, 1e6) end, { "table expected, got number" }, "dot call")
T.done()
