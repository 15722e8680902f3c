-- test_rhx.lua: the two-phase exchangers TwoPhaseCounterFlowHX and TwoPhaseCrossFlowHX
-- (src/lib/thermofluid/rhx.c; docs/refrigeration.md, "Two-phase heat exchangers"):
-- charge and energy kept in a closed circuit of two exchangers, steady heat balances
-- with the refrigerant all liquid, all vapour, crossing the dome and above the critical
-- pressure, lanes on and off, refusals and faults.
local T = require "tests.testing"
local lied = require "lied"
local tf = require "lied.thermofluid"
local sig = require "lied.signals"
local R = tf.R134a

-- a chain: a source of liquid feeds hx1 (warmed by water at 40 degC), which feeds hx2
-- (cooled by air at 5 degC) through a pressure drop, to a sink; the charge moves between
-- them as the refrigerant boils and condenses. Integrators of the flows and enthalpy flows
-- at the chain's ends and of the heat into the refrigerant (states integrated with the
-- exchangers' own) close the balances: charge and energy of the cells change only by them.
local function ports(name)
  return {
    [name .. "m"] = tf.MassFlowSensor { medium = R },
    [name .. "h"] = tf.EnthalpySensor { medium = R },
    [name .. "mh"] = sig.Product {},
    [name .. "M"] = sig.Integrator {},
    [name .. "H"] = sig.Integrator {},
  }
end
local parts = {
  src = tf.MassFlowSource { m_flow = 0.01, T0 = 300, p0 = 1e6, medium = R },
  hx1 = tf.TwoPhaseCounterFlowHX { N = 8, V_a = 1e-3, p0_a = 4.1e5, x0_a = 0.4, A_a = 1, UA_b = 600,
                                    C_w = 500, L = 1e4, m_flow = 0.01 },
  hx2 = tf.TwoPhaseCrossFlowHX { N = 6, V_a = 1.5e-3, p0_a = 4e5, x0_a = 0.2, A_a = 1, UA_b = 600,
                                  C_w = 500, L = 1e4, m_flow = 0.01, medium_b = tf.air },
  d1 = tf.LinearQuadraticDrop { k1 = 1e7, k2 = 0, medium = R },
  d2 = tf.LinearQuadraticDrop { k1 = 1e7, k2 = 0, medium = R },
  snk = tf.Sink { p0 = 3.9e5, medium = R },
  w = tf.MassFlowSource { m_flow = 0.1, T0 = 313.15, p0 = 2e5 },
  ws = tf.Sink { p0 = 2e5 },
  a = tf.MassFlowSource { m_flow = 0.3, T0 = 278.15, p0 = 1e5, medium = tf.air },
  as = tf.Sink { p0 = 1e5, medium = tf.air },
  E1 = sig.Integrator {},
  E2 = sig.Integrator {},
  connect = { { "src.outlet", "im.inlet" }, { "im.outlet", "ih.inlet" }, { "ih.outlet", "hx1.inlet_a" },
              { "hx1.outlet_a", "d1.inlet" }, { "d1.outlet", "hx2.inlet_a" },
              { "hx2.outlet_a", "om.inlet" }, { "om.outlet", "oh.inlet" }, { "oh.outlet", "d2.inlet" },
              { "d2.outlet", "snk.inlet" },
              { "w.outlet", "hx1.inlet_b" }, { "hx1.outlet_b", "ws.inlet" },
              { "a.outlet", "hx2.inlet_b" }, { "hx2.outlet_b", "as.inlet" },
              { "hx1.Q_out", "E1.u" }, { "hx2.Q_out", "E2.u" } },
}
for _, e in ipairs { "i", "o" } do
  for k, v in pairs(ports(e)) do parts[k] = v end
  for _, c in ipairs { { e .. "m.y", e .. "mh.u1" }, { e .. "h.y", e .. "mh.u2" }, { e .. "m.y", e .. "M.u" },
                       { e .. "mh.y", e .. "H.u" } } do
    table.insert(parts.connect, c)
  end
end
local m = lied.build(lied.model "Chain"(parts))
local M0 = m:value("hx1.M") + m:value("hx2.M")
local U0 = m:value("hx1.U") + m:value("hx2.U")
local res, _, err = m:run { stop = 400, solver = "esdirk23", tol = 1e-8, interval = 2, progress = false,
                            vars = "hx1.M,hx2.M,hx1.U,hx2.U,E1.y,E2.y,iM.y,oM.y,iH.y,oH.y,hx1.m_flow,hx2.m_flow" }
T.eq(err, nil, "chain: the run ends without a fault")
local c = {}
for _, n in ipairs(res:names()) do c[n] = res:column(n) end
local worst_M, worst_U, low = 0, 0, math.huge
for i = 1, res:nrows() do
  local M = c["hx1.M"][i] + c["hx2.M"][i] - c["iM.y"][i] + c["oM.y"][i]
  local U = c["hx1.U"][i] + c["hx2.U"][i] - c["E1.y"][i] - c["E2.y"][i] - c["iH.y"][i] + c["oH.y"][i]
  worst_M = math.max(worst_M, math.abs(M - M0) / M0)
  worst_U = math.max(worst_U, math.abs(U - U0) / math.abs(U0))
  low = math.min(low, c["hx1.m_flow"][i], c["hx2.m_flow"][i])
end
-- (a reversed flow between two exchangers carries the enthalpy of each one's own side, as
-- between Volumes: the directed stream has no upstream enthalpy; here the flows stay forward)
T.check(low > 0, "chain: the flows stay in the nominal direction (lowest " .. low .. " kg/s)")
T.check(worst_M <= 1e-9, "chain: charge = start + inflow - outflow, to 1e-9 (worst " .. worst_M .. ")")
T.check(worst_U <= 1e-9, "chain: energy = start + enthalpy flows + heat, to 1e-9 (worst " .. worst_U .. ")")
local n = res:nrows()
T.check(c["hx1.M"][n] < 0.8 * c["hx1.M"][1] and c["hx2.M"][n] > 1.2 * c["hx2.M"][1],
  "chain: the charge migrates from the warmed exchanger to the cooled one")

-- one exchanger between a mass flow source and a pressure drop to a sink; returns the
-- built model after a run to steady state
-- (p_hx: the exchanger's pressure at steady state, m_ref: the source's flow)
local function through(hx, src, sec, secs, p_hx, m_ref, med, stop)
  med = med or R
  local M = lied.model "Through" {
    src = src, hx = hx, sec = sec, secs = secs,
    d = tf.LinearQuadraticDrop { k1 = 1e6, k2 = 0, medium = med },
    snk = tf.Sink { p0 = p_hx - 1e6 * m_ref, medium = med },
    connect = { { "src.outlet", "hx.inlet_a" }, { "hx.outlet_a", "d.inlet" }, { "d.outlet", "snk.inlet" },
                { "sec.outlet", "hx.inlet_b" }, { "hx.outlet_b", "secs.inlet" } },
  }
  local b = lied.build(M)
  -- tol 1e-7: the balances hold to 1e-8 there as at 1e-9 (checked at 1e-6), in half the time
  local _, _, e = b:run { stop = stop or 600, solver = "esdirk23", tol = 1e-7, progress = false }
  T.eq(e, nil, "through: the run ends without a fault")
  return b
end
-- steady balances: refrigerant m (h_out - h_in) = Q_flow = Q_b (wall steady), the
-- secondary's enthalpy drop m_b (h_b,in - h_b,out) = Q_b
local function balance(b, m_ref, h_in, m_b, hb_in, hb_out, what)
  local Q = b:value("hx.Q_flow")
  local N = b:value("hx.N")
  T.near(m_ref * (b:value("hx.h[" .. math.floor(N) .. "]") - h_in), Q, 1e-6 * math.abs(Q), what .. ": m (h_out - h_in) = Q_flow")
  T.near(b:value("hx.Q_b"), Q, 1e-6 * math.abs(Q), what .. ": Q_b = Q_flow (the wall at steady state)")
  T.near(m_b * (hb_in - hb_out), Q, 1e-6 * math.abs(Q), what .. ": the secondary's enthalpy drop = Q_flow")
end

-- each cell's heat q_i = alpha(x_i) A_a/N (T_w,i - T_i), the coefficient by hand: alpha_liq,
-- alpha_2ph, alpha_vap (defaults 1500, 3000, 800) blended by t^2 (3 - 2t) over x in
-- [-dx, dx] and [1 - dx, 1 + dx] (dx = 0.05)
local function coefficients(b, N, A, what)
  local function st(t) t = math.min(1, math.max(0, t)); return t * t * (3 - 2 * t) end
  local seen = {}
  for i = 1, N do
    local x = b:value("hx.x[" .. i .. "]")
    local a = x < 0.5 and 1500 + (3000 - 1500) * st((x + 0.05) / 0.1) or 3000 + (800 - 3000) * st((x - 0.95) / 0.1)
    local q = a * A / N * (b:value("hx.T_w[" .. i .. "]") - b:value("hx.T[" .. i .. "]"))
    T.near(b:value("hx.q[" .. i .. "]"), q, 1e-12 * math.abs(q), what .. ": cell " .. i .. "'s heat at its coefficient")
    seen[x < -0.05 and "liquid" or x <= 0.05 and "blend" or x < 0.95 and "two-phase" or x <= 1.05 and "blend" or "vapour"] = true
  end
  return seen
end

-- crossing the dome: R134a at 3 bar, quality 0.22 at the inlet, evaporated and
-- superheated by air in cross flow
local h_in = R:h_pT(1e6, 300)
local b = through(
  tf.TwoPhaseCrossFlowHX { N = 10, V_a = 2e-3, p0_a = 3e5, x0_a = 0.3, A_a = 2, UA_b = 800, C_w = 2000,
                           medium_b = tf.air, L = 1e3, m_flow = 0.02 },
  tf.MassFlowSource { m_flow = 0.02, T0 = 300, p0 = 1e6, medium = R },
  tf.MassFlowSource { m_flow = 0.3, T0 = 300, p0 = 1e5, medium = tf.air },
  tf.Sink { p0 = 1e5, medium = tf.air }, 3e5, 0.02)
T.near(b:value("hx.p"), 3e5, 1e-6 * 3e5, "evaporator: p = the sink's + the drop's")
T.check(b:value("hx.x[1]") > 0 and b:value("hx.x[1]") < 1, "evaporator: the first cell two-phase")
T.check(b:value("hx.x[10]") > 1, "evaporator: the last cell superheated")
T.near(b:value("hx.T[1]"), R:Tsat(3e5), 1e-6, "evaporator: the first cell at Tsat(p)")
T.near(b:value("hx.x[1]"), R:x_ph(3e5, b:value("hx.h[1]")), 1e-6, "evaporator: quality x_ph(p, h) in the dome")
balance(b, 0.02, h_in, 0.3, tf.air:h_T(300), tf.air:h_T(b:value("hx.T_b")), "evaporator")
local seen = coefficients(b, 10, 2, "evaporator")
T.check(seen["two-phase"] and seen.blend and seen.vapour, "evaporator: cells boiling, in the blend at the dome's edge (cell 5: x = 1.02) and superheated")
local Mc = 0
for i = 1, 10 do Mc = Mc + 2e-4 * R:rho_ph(3e5, b:value("hx.h[" .. i .. "]")) end
T.near(b:value("hx.M"), Mc, 1e-9 * Mc, "evaporator: the charge fills the cells at the tables' densities")

-- water at T (tf.water: h = cp (T - 293.15), cp = 4184)
local function hw(T_) return 4184 * (T_ - 293.15) end
-- all liquid: R134a at 10 bar, 20 degC, cooled by water at 10 degC in counter flow
h_in = R:h_pT(1e6, 293.15)
b = through(
  tf.TwoPhaseCounterFlowHX { N = 6, V_a = 1e-3, p0_a = 1e6, T0_a = 293.15, A_a = 1, UA_b = 400, L = 1e3,
                             m_flow = 0.05 },
  tf.MassFlowSource { m_flow = 0.05, T0 = 293.15, p0 = 1e6, medium = R },
  tf.MassFlowSource { m_flow = 0.05, T0 = 283.15, p0 = 2e5 }, tf.Sink { p0 = 2e5 }, 1e6, 0.05)
for i = 1, 6 do T.check(b:value("hx.x[" .. i .. "]") < 0, "liquid: cell " .. i .. " below the dome") end
T.check(b:value("hx.T[6]") < b:value("hx.T[1]") and b:value("hx.T[6]") > 283.15, "liquid: cooled towards the water")
balance(b, 0.05, h_in, 0.05, hw(283.15), hw(b:value("hx.T_b")), "liquid")
T.check(coefficients(b, 6, 1, "liquid").liquid, "liquid: cells at alpha_liq")
-- all vapour: R134a at 3 bar, 20 degC, warmed by water at 40 degC
h_in = R:h_pT(3e5, 293.15)
b = through(
  tf.TwoPhaseCounterFlowHX { N = 6, V_a = 1e-3, p0_a = 3e5, T0_a = 293.15, A_a = 1, UA_b = 400, L = 1e3,
                             m_flow = 0.02 },
  tf.MassFlowSource { m_flow = 0.02, T0 = 293.15, p0 = 3e5, medium = R },
  tf.MassFlowSource { m_flow = 0.05, T0 = 313.15, p0 = 2e5 }, tf.Sink { p0 = 2e5 }, 3e5, 0.02)
for i = 1, 6 do T.check(b:value("hx.x[" .. i .. "]") > 1, "vapour: cell " .. i .. " above the dome") end
T.check(b:value("hx.T[6]") > b:value("hx.T[1]") and b:value("hx.T[6]") < 313.15, "vapour: warmed towards the water")
balance(b, 0.02, h_in, 0.05, hw(313.15), hw(b:value("hx.T_b")), "vapour")
-- above the critical pressure: an R744 gas cooler at 9 MPa against water at 20 degC
local C = tf.R744
h_in = C:h_pT(9e6, 380)
b = through(
  tf.TwoPhaseCounterFlowHX { N = 10, V_a = 1e-3, p0_a = 9e6, T0_a = 330, A_a = 1, UA_b = 800, L = 1e3,
                             m_flow = 0.03, medium_a = C },
  tf.MassFlowSource { m_flow = 0.03, T0 = 380, p0 = 9e6, medium = C },
  tf.MassFlowSource { m_flow = 0.1, T0 = 293.15, p0 = 2e5 }, tf.Sink { p0 = 2e5 }, 9e6, 0.03, C)
T.check(b:value("hx.T[10]") < 310 and b:value("hx.T[10]") > 293.15, "gas cooler: cooled below the critical temperature")
T.eq(b:value("hx.x[5]"), 1, "gas cooler: above the critical pressure every cell counts as vapour")
balance(b, 0.03, h_in, 0.1, hw(293.15), hw(b:value("hx.T_b")), "gas cooler")

-- lanes on and off: 24 evaporators of different air flows give the same bits
local Ev = lied.model "Ev" {
  parameters = { m_air = 0.3 },
  src = tf.MassFlowSource { m_flow = 0.02, T0 = 300, p0 = 1e6, medium = R },
  hx = tf.TwoPhaseCrossFlowHX { N = 10, V_a = 2e-3, p0_a = 3e5, x0_a = 0.3, A_a = 2, UA_b = 800, C_w = 2000,
                                medium_b = tf.air, L = 1e5, m_flow = 0.02 },
  snk = tf.Sink { p0 = 3e5, medium = R }, -- (no pressure drop: its classes have no lane forms)
  air = tf.MassFlowSource { m_flow = lied.param "m_air", T0 = 300, p0 = 1e5, medium = tf.air },
  out = tf.Sink { p0 = 1e5, medium = tf.air },
  connect = { { "src.outlet", "hx.inlet_a" }, { "hx.outlet_a", "snk.inlet" },
              { "air.outlet", "hx.inlet_b" }, { "hx.outlet_b", "out.inlet" } },
}
local Evs = lied.model "Evs" { e = lied.array(Ev, 24, { m_air = function(i) return 0.1 + 0.02 * i end }) }
T.check(lied.build(Evs):info().lanes, "evaporators: the copies run in lane form")
local function run(lanes)
  local r, _, e = lied.build(Evs):run { stop = 5, solver = "rk4", dt = 0.01, interval = 0.5, lanes = lanes,
                                        progress = false, vars = "e[*].hx.*" }
  T.eq(e, nil, "evaporators: the run ends without a fault, lanes " .. tostring(lanes))
  return r
end
local ra, rb = run(true), run(false)
local diff, cols = 0, 0
for _, name in ipairs(ra:names()) do
  local ca, cb = ra:column(name), rb:column(name)
  cols = cols + 1
  for i = 1, #ca do if ca[i] ~= cb[i] then diff = diff + 1 end end
end
T.check(cols > 24 * 50, "evaporators: every copy's cells recorded (" .. cols .. " columns)")
T.eq(diff, 0, "evaporators: lanes on and off, the same bits")

-- refusals when the model is built, naming the component
local function one(hx)
  return lied.model "One" {
    src = tf.MassFlowSource { m_flow = 0.01, T0 = 300, p0 = 1e6, medium = R },
    hx = hx, snk = tf.Sink { p0 = 3e5, medium = R },
    w = tf.MassFlowSource { m_flow = 0.1, T0 = 300, p0 = 2e5 }, ws = tf.Sink { p0 = 2e5 },
    connect = { { "src.outlet", "hx.inlet_a" }, { "hx.outlet_a", "snk.inlet" },
                { "w.outlet", "hx.inlet_b" }, { "hx.outlet_b", "ws.inlet" } },
  }
end
T.raises(function() lied.build(one(tf.TwoPhaseCounterFlowHX { medium_a = tf.water })) end,
  { "hx", "medium_a: the refrigerant side needs a medium with two phases" }, "a liquid as the refrigerant")
T.raises(function() lied.build(one(tf.TwoPhaseCounterFlowHX { p0_a = 5e6, x0_a = 0.5 })) end,
  { "hx", "x0_a = 0.5: p0_a = 5e+06 Pa has no two-phase states in R134a" }, "x0_a above the critical pressure")
T.raises(function() lied.build(one(tf.TwoPhaseCounterFlowHX { p0_a = 1e5, T0_a = 100 })) end,
  { "hx: start state (p0_a, T0_a): R134a: p = 100000 Pa, T = 100 K: T is outside the table's range" },
  "a start state below the table")
T.raises(function() lied.build(one(tf.TwoPhaseCounterFlowHX { N = 51 })) end, { "hx", "N" }, "too many cells")
T.raises(function() lied.build(one(tf.TwoPhaseCounterFlowHX { dx = 0 })) end, { "hx", "dx" }, "no blend width")

-- a state leaving the tables during a run: a fault naming the component, the cell, the
-- time and the state, never NaN in the results (hot air at 600 K over a nearly still
-- refrigerant)
local Hot = lied.model "Hot" {
  src = tf.MassFlowSource { m_flow = 1e-4, T0 = 300, p0 = 1e6, medium = R },
  hx = tf.TwoPhaseCrossFlowHX { N = 4, V_a = 1e-4, p0_a = 1e6, T0_a = 350, A_a = 1, UA_b = 2000, C_w = 50,
                                medium_b = tf.air, L = 1e5, m_flow = 1e-4 },
  d = tf.LinearQuadraticDrop { k1 = 1e6, k2 = 0, medium = R },
  snk = tf.Sink { p0 = 1e6 - 100, medium = R },
  air = tf.MassFlowSource { m_flow = 0.5, T0 = 600, p0 = 1e5, medium = tf.air },
  out = tf.Sink { p0 = 1e5, medium = tf.air },
  connect = { { "src.outlet", "hx.inlet_a" }, { "hx.outlet_a", "d.inlet" }, { "d.outlet", "snk.inlet" },
              { "air.outlet", "hx.inlet_b" }, { "hx.outlet_b", "out.inlet" } },
}
T.raises(function() lied.simulate(Hot, { stop = 100, solver = "rk4", dt = 0.01 }):run() end,
  { "at t = ", ": hx: refrigerant cell ", ": R134a: p = ", "above 455 K (the highest temperature of the table)" },
  "an exchanger leaving the range: a fault naming the component, the cell, the time and the state")
local hr, _, herr = lied.build(Hot):run { stop = 100, solver = "rk4", dt = 0.01, interval = 0.01, progress = false,
                                          vars = "hx.*" }
T.check(herr ~= nil, "the faulting run returns its error")
local nan = 0
for _, name in ipairs(hr:names()) do
  for _, v in ipairs(hr:column(name)) do if v ~= v then nan = nan + 1 end end
end
T.eq(nan, 0, "the faulting run records no NaN")

-- no flow on either side: the exchanger comes to rest, defined (no NaN): no heat from
-- stream b, the wall and the refrigerant settle to one temperature (the wall's heat
-- boiling some refrigerant out to the sink), the pressure the sink's
local Still = lied.model "Still" {
  src = tf.MassFlowSource { m_flow = 0, T0 = 300, p0 = 1e6, medium = R },
  hx = tf.TwoPhaseCounterFlowHX { N = 5, V_a = 1e-3, p0_a = 4e5, x0_a = 0.5, C_w = 500, T0_w = 290, L = 1e5 },
  d = tf.LinearQuadraticDrop { k1 = 1e6, k2 = 0, medium = R },
  snk = tf.Sink { p0 = 4e5, medium = R },
  w = tf.MassFlowSource { m_flow = 0, T0 = 350, p0 = 2e5 }, ws = tf.Sink { p0 = 2e5 },
  connect = { { "src.outlet", "hx.inlet_a" }, { "hx.outlet_a", "d.inlet" }, { "d.outlet", "snk.inlet" },
              { "w.outlet", "hx.inlet_b" }, { "hx.outlet_b", "ws.inlet" } },
}
local sb = lied.build(Still)
local sM0 = sb:value("hx.M")
local sr, _, serr = sb:run { stop = 200, solver = "esdirk23", tol = 1e-9, interval = 1, progress = false, vars = "hx.*" }
T.eq(serr, nil, "no flow: the run ends without a fault")
nan = 0
for _, name in ipairs(sr:names()) do
  for _, v in ipairs(sr:column(name)) do if v ~= v then nan = nan + 1 end end
end
T.eq(nan, 0, "no flow: no NaN recorded")
T.eq(sb:value("hx.Q_b"), 0, "no flow: no heat from stream b")
T.near(sb:value("hx.T_b"), 350, 1e-9, "no flow: stream b leaves at its inlet state")
T.near(sb:value("hx.T_w[3]"), sb:value("hx.T[3]"), 1e-3, "no flow: wall and refrigerant settle together")
T.check(sb:value("hx.M") < sM0, "no flow: the wall's heat boils refrigerant out to the sink")
T.near(sb:value("hx.m_flow"), 0, 1e-7, "no flow: at rest the outflow stops")
T.near(sb:value("hx.p"), 4e5, 1, "no flow: at rest the sink's pressure")

T.done()
