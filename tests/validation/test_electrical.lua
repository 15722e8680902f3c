-- Validation of the electrical library (lied.electrical, docs/electrical.md)
-- against closed forms and matrix exponentials written here, apart from the
-- library, each to 1e-8 relative (dopri45 at tol 1e-12): an RC charge, a
-- series RLC (under- and overdamped), a network of two junctions, five
-- meshes, two capacitors and an inductor (its matrix from nodal analysis
-- done by hand, solved by a matrix exponential), an ideal transformer, a
-- switched RC, the averaged DC/DC converter's power balance in both
-- directions, the sensors; the energy delivered by the source equals the
-- energy stored plus the heat the resistors gave their heat ports, to 1e-9.
local lied = require "lied"
local el = require "lied.electrical"
local th = require "lied.thermal"
local S = require "lied.signals"
local T = require "tests.testing"

local opts = { solver = "dopri45", tol = 1e-12 }
local function run(M, stop, vars, over)
  local o = { stop = stop, interval = stop / 50, vars = vars }
  for k, v in pairs(opts) do o[k] = v end
  for k, v in pairs(over or {}) do o[k] = v end
  return lied.simulate(M, o):run()
end
local function close(res, name, f, scale, what, tol)
  local t, y, w = res:column("time"), res:column(name), 0
  for i = 1, #t do w = math.max(w, math.abs(y[i] - f(t[i])) / scale) end
  print(string.format("%-56s %.3g", what, w))
  T.check(w < (tol or 1e-8), string.format("%s: %.3g", what, w))
  return w
end

-- ---- a matrix exponential (scaling and squaring of the Taylor series) ----
local function matmul(A, B)
  local n, C = #A, {}
  for i = 1, n do
    C[i] = {}
    for j = 1, n do
      local s = 0
      for k = 1, n do s = s + A[i][k] * B[k][j] end
      C[i][j] = s
    end
  end
  return C
end
local function expm(A, t)
  local n, norm = #A, 0
  for i = 1, n do
    local r = 0
    for j = 1, n do r = r + math.abs(A[i][j] * t) end
    norm = math.max(norm, r)
  end
  local s = 0
  while norm / 2 ^ s > 0.05 do s = s + 1 end
  local M, E, term = {}, {}, {}
  for i = 1, n do
    M[i], E[i], term[i] = {}, {}, {}
    for j = 1, n do
      M[i][j] = A[i][j] * t / 2 ^ s
      E[i][j] = i == j and 1 or 0
      term[i][j] = E[i][j]
    end
  end
  for k = 1, 20 do
    term = matmul(term, M)
    for i = 1, n do
      for j = 1, n do
        term[i][j] = term[i][j] / k
        E[i][j] = E[i][j] + term[i][j]
      end
    end
  end
  for _ = 1, s do E = matmul(E, E) end
  return E
end

-- 1. RC charge: v = V (1 - exp(-t/(R C))), i = (V/R) exp(-t/(R C)).
do
  local V, R, C = 12, 50, 2e-3
  local M = lied.model "RC" {
    gnd = el.Ground {}, src = el.VoltageSource { V = V }, r = el.Resistor { R = R },
    c = el.Capacitor { C = C },
    connect = { { "src.n", "gnd.p" }, { "src.p", "r.p" }, { "r.n", "c.p" }, { "c.n", "gnd.p" } },
  }
  local tau = R * C
  local res = run(M, 5 * tau, "c.v,c.i,r.i,src.P,gnd.i")
  close(res, "c.v", function(t) return V * (1 - math.exp(-t / tau)) end, V, "RC charge: voltage")
  close(res, "c.i", function(t) return V / R * math.exp(-t / tau) end, V / R, "RC charge: current")
  close(res, "src.P", function(t) return V * V / R * math.exp(-t / tau) end, V * V / R,
    "RC charge: power delivered")
  local n = res:nrows()
  T.near(res:column("r.i")[n], res:column("c.i")[n], 1e-15, "RC: one current in series")
  T.near(res:column("gnd.i")[n], 0, 1e-15, "RC: the ground closes the loop (sum of currents)")
end

-- 2. Series RLC step response: v_C = V (1 - exp(-a t) (cos(wd t) + a/wd sin(wd t))) underdamped,
-- V (1 - (r2 exp(r1 t) - r1 exp(r2 t))/(r2 - r1)) overdamped; a junction between R and L.
local function rlc(R, L, C, V)
  return lied.model "RLC" {
    gnd = el.Ground {}, src = el.VoltageSource { V = V }, r = el.Resistor { R = R }, m = el.Node {},
    l = el.Inductor { L = L }, c = el.Capacitor { C = C },
    connect = { { "src.n", "gnd.p" }, { "src.p", "r.p" }, { "r.n", "m.p" }, { "l.p", "m.p" },
                { "l.n", "c.p" }, { "c.n", "gnd.p" } },
  }
end
do
  local R, L, C, V = 2, 0.5, 0.01, 10
  local a, w0 = R / (2 * L), 1 / math.sqrt(L * C)
  local wd = math.sqrt(w0 * w0 - a * a)
  local res = run(rlc(R, L, C, V), 1.5, "c.v,l.i,m.p.v")
  close(res, "c.v", function(t)
    return V * (1 - math.exp(-a * t) * (math.cos(wd * t) + a / wd * math.sin(wd * t)))
  end, V, "series RLC, underdamped: capacitor voltage")
  close(res, "l.i", function(t) return V / (L * wd) * math.exp(-a * t) * math.sin(wd * t) end,
    V / (L * wd), "series RLC, underdamped: current")
  close(res, "m.p.v", function(t) return V - R * V / (L * wd) * math.exp(-a * t) * math.sin(wd * t) end,
    V, "series RLC, underdamped: junction potential")
  local b = lied.build(rlc(R, L, C, V)):info()
  T.eq(b.sections, 1, "series RLC: one linear section (the junction)")
  T.eq(b.constant_sections, 1, "series RLC: its matrix is constant")
end
do
  local R, L, C, V = 40, 0.5, 0.01, 10
  local a, w0 = R / (2 * L), 1 / math.sqrt(L * C)
  local r1, r2 = -a + math.sqrt(a * a - w0 * w0), -a - math.sqrt(a * a - w0 * w0)
  local res = run(rlc(R, L, C, V), 2, "c.v")
  close(res, "c.v", function(t)
    return V * (1 - (r2 * math.exp(r1 * t) - r1 * math.exp(r2 * t)) / (r2 - r1))
  end, V, "series RLC, overdamped: capacitor voltage")
end

-- 3. A network with meshes: the source (V0) feeds junction a through R1; R2 from a to the
-- ground; R3 from a to the capacitor C1 (net b); R4 from b to junction c; R7 from a to c;
-- R5 from c to the ground; the inductor L from c to the capacitor C2 (net d); R6 from d to the
-- ground. Nodal analysis by hand: the junction potentials va, vc solve
--   (va - V0)/R1 + va/R2 + (va - u1)/R3 + (va - vc)/R7 = 0
--   (vc - u1)/R4 + vc/R5 + iL + (vc - va)/R7 = 0
-- and C1 u1' = (va - u1)/R3 - (u1 - vc)/R4, L iL' = vc - u2, C2 u2' = iL - u2/R6.
local P = { V0 = 24, R1 = 3, R2 = 20, R3 = 5, R4 = 8, R5 = 12, R6 = 6, R7 = 15, C1 = 0.05,
            C2 = 0.02, L = 0.4 }
local function network(energy)
  local function R(r)
    return el.Resistor { R = r, heat_port = energy and 1 or 0 }
  end
  local m = {
    gnd = el.Ground {}, src = el.VoltageSource { V = P.V0 }, a = el.Node {}, c = el.Node {},
    r1 = R(P.R1), r2 = R(P.R2), r3 = R(P.R3), r4 = R(P.R4), r5 = R(P.R5), r6 = R(P.R6),
    r7 = R(P.R7), c1 = el.Capacitor { C = P.C1 }, c2 = el.Capacitor { C = P.C2 },
    l = el.Inductor { L = P.L },
    connect = {
      { "src.n", "gnd.p" }, { "src.p", "r1.p" }, { "r1.n", "a.p" }, { "r2.p", "a.p" },
      { "r2.n", "gnd.p" }, { "r3.p", "a.p" }, { "r3.n", "c1.p" }, { "c1.n", "gnd.p" },
      { "r4.p", "c1.p" }, { "r4.n", "c.p" }, { "r7.p", "a.p" }, { "r7.n", "c.p" },
      { "r5.p", "c.p" }, { "r5.n", "gnd.p" }, { "l.p", "c.p" }, { "l.n", "c2.p" },
      { "c2.n", "gnd.p" }, { "r6.p", "c2.p" }, { "r6.n", "gnd.p" },
    },
  }
  if energy then -- the source through a power sensor whose signal is integrated; every
    -- resistor's heat into a capacitor of 1 J/K, whose temperature rise is the heat in J
    m.src = el.VoltageSource { V = P.V0 }
    m.pw = el.PowerSensor {}
    m.e_src = S.Integrator {}
    m.heat = th.HeatCapacitor { C = 1, T = 300 }
    m.connect[2] = { "src.p", "pw.pc" }
    local c = m.connect
    c[#c + 1] = { "pw.nc", "r1.p" }
    c[#c + 1] = { "pw.pv", "src.p" }
    c[#c + 1] = { "pw.nv", "gnd.p" }
    c[#c + 1] = { "pw.y", "e_src.u" }
    for _, r in ipairs { "r1", "r2", "r3", "r4", "r5", "r6", "r7" } do
      c[#c + 1] = { r .. ".heat", "heat.port" }
    end
  end
  return lied.model "Network" (m)
end
local function network_f(x) -- x = {u1, iL, u2}: the derivatives, by hand
  local u1, iL, u2 = x[1], x[2], x[3]
  -- [g11 g12; g21 g22] [va; vc] = [r1; r2]
  local g11 = 1 / P.R1 + 1 / P.R2 + 1 / P.R3 + 1 / P.R7
  local g12 = -1 / P.R7
  local g22 = 1 / P.R4 + 1 / P.R5 + 1 / P.R7
  local b1 = P.V0 / P.R1 + u1 / P.R3
  local b2 = u1 / P.R4 - iL
  local det = g11 * g22 - g12 * g12
  local va = (b1 * g22 - g12 * b2) / det
  local vc = (g11 * b2 - g12 * b1) / det
  return { ((va - u1) / P.R3 - (u1 - vc) / P.R4) / P.C1, (vc - u2) / P.L, (iL - u2 / P.R6) / P.C2 },
    va, vc
end
do
  -- x' = A x + b: the columns of A and b from the hand-written right-hand side (it is affine)
  local f0 = network_f { 0, 0, 0 }
  local A = { {}, {}, {}, {} }
  for j = 1, 3 do
    local e = { 0, 0, 0 }
    e[j] = 1
    local fj = network_f(e)
    for i = 1, 3 do A[i][j] = fj[i] - f0[i] end
  end
  for i = 1, 3 do A[i][4] = f0[i] end
  A[4] = { 0, 0, 0, 0 }
  local function ref(t) -- from x(0) = 0: [x; 1](t) = expm([A b; 0 0] t) [0; 1]
    local E = expm(A, t)
    return { E[1][4], E[2][4], E[3][4] }
  end
  local res = run(network(false), 1.5, "c1.v,l.i,c2.v,a.p.v,c.p.v")
  local names = { "c1.v", "l.i", "c2.v" }
  local scale = { 24, 2, 24 }
  for k = 1, 3 do
    close(res, names[k], function(t) return ref(t)[k] end, scale[k],
      "network of five meshes (matrix exponential): " .. names[k])
  end
  close(res, "a.p.v", function(t) local _, va = network_f(ref(t)); return va end, 24,
    "network: junction a")
  close(res, "c.p.v", function(t) local _, _, vc = network_f(ref(t)); return vc end, 24,
    "network: junction c")
  local info = lied.build(network(false)):info()
  T.eq(info.sections, 1, "network: the two junctions are one section")
  T.eq(info.max_section, 2, "network: of two tearing variables")
  T.eq(info.constant_sections, 1, "network: constant, factorised once per run")

  -- energy: delivered = stored (C u^2/2, L i^2/2) + dissipated (the heat capacitor's rise)
  local res2 = run(network(true), 1.5, "e_src.y,heat.T,c1.v,l.i,c2.v,pw.P,src.P")
  local n = res2:nrows()
  local e_src = res2:column("e_src.y")[n]
  local stored = P.C1 * res2:column("c1.v")[n] ^ 2 / 2 + P.L * res2:column("l.i")[n] ^ 2 / 2 +
      P.C2 * res2:column("c2.v")[n] ^ 2 / 2
  local heat = res2:column("heat.T")[n] - 300
  local rel = math.abs(e_src - stored - heat) / e_src
  print(string.format("%-56s %.3g (delivered %.6g J)", "network: energy balance", rel, e_src))
  T.check(rel < 1e-9, "network: energy delivered = stored + dissipated: " .. rel)
  T.near(res2:column("pw.P")[n], res2:column("src.P")[n], 1e-12 * P.V0 * P.V0,
    "power sensor = the power the source delivers")
end

-- 4. An ideal transformer (n = 4) from a source to a load: v2 = V/n, i1 = v2/(n R).
do
  local V, n, R = 100, 4, 5
  local M = lied.model "Trafo" {
    gnd = el.Ground {}, gnd2 = el.Ground {}, src = el.VoltageSource { V = V },
    tr = el.IdealTransformer { n = n }, load = el.Resistor { R = R },
    vs = el.VoltageSensor {}, cs = el.CurrentSensor {},
    connect = { { "src.n", "gnd.p" }, { "src.p", "tr.p1" }, { "tr.n1", "gnd.p" },
                { "tr.n2", "gnd2.p" }, { "tr.p2", "cs.p" }, { "cs.n", "load.p" },
                { "load.n", "gnd2.p" }, { "vs.p", "cs.n" }, { "vs.n", "gnd2.p" } },
  }
  local res = run(M, 1, "tr.v2,tr.i1,tr.i2,load.i,vs.y,cs.y,src.P,load.P")
  local k = res:nrows()
  T.near(res:column("tr.v2")[k], V / n, 1e-13, "transformer: v2 = v1/n")
  T.near(res:column("vs.y")[k], V / n, 1e-13, "voltage sensor")
  T.near(res:column("cs.y")[k], V / n / R, 1e-13, "current sensor: the load current")
  T.near(res:column("tr.i1")[k], V / n / R / n, 1e-13, "transformer: i1 = -i2/n")
  T.near(res:column("tr.i2")[k], -V / n / R, 1e-13, "transformer: i2 into p2")
  T.near(res:column("src.P")[k], res:column("load.P")[k], 1e-12, "transformer: lossless")
end

-- 5. A switched RC: the switch closes at t1 (charging through R) and opens at t2 (the
-- capacitor then discharges through a parallel resistor Rp); Ron = 1e-5 in series with R,
-- Goff = 0 (the default 1e-5 S would leak 4e-3 of V into the capacitor while open).
do
  local V, R, Rp, C, t1, t2 = 10, 100, 400, 1e-3, 0.05, 0.2
  local M = lied.model "Switched" {
    gnd = el.Ground {}, src = el.VoltageSource { V = V }, sw = el.IdealSwitch { Goff = 0 },
    r = el.Resistor { R = R }, m = el.Node {}, c = el.Capacitor { C = C }, rp = el.Resistor { R = Rp },
    on = S.Pulse { amplitude = 1, width = (t2 - t1) / 0.5 * 100, period = 0.5, t0 = t1 },
    cmp = S.GreaterThreshold { threshold = 0.5 },
    connect = { { "src.n", "gnd.p" }, { "src.p", "sw.p" }, { "sw.n", "m.p" }, { "r.p", "m.p" },
                { "r.n", "c.p" }, { "c.n", "gnd.p" }, { "rp.p", "c.p" }, { "rp.n", "gnd.p" },
                { "on.y", "cmp.u" }, { "cmp.y", "sw.control" } },
  }
  local Rs = R + 1e-5 -- the switch's Ron in series
  local tau_on = C * Rs * Rp / (Rs + Rp)
  local v_inf = V * Rp / (Rs + Rp)
  local v2 = v_inf * (1 - math.exp(-(t2 - t1) / tau_on))
  local function ref(t)
    if t <= t1 then return 0 end
    if t <= t2 then return v_inf * (1 - math.exp(-(t - t1) / tau_on)) end
    return v2 * math.exp(-(t - t2) / (Rp * C))
  end
  local res = run(M, 0.4, "c.v,sw.closed,sw.i")
  close(res, "c.v", ref, V, "switched RC: capacitor voltage")
  local t, events = res:column("time"), {}
  for i = 2, #t do if t[i] == t[i - 1] then events[#events + 1] = t[i] end end
  T.near(events[1], t1, 1e-12, "switched RC: closes at t1")
  T.near(events[#events], t2, 1e-12, "switched RC: opens at t2")
end

-- 6. The averaged DC/DC converter: a source with an internal resistance feeds a DC-link
-- capacitor (Node C); the converter holds 12 V on its output, whose load current is a sine
-- (a current source), so the power reverses: P1 = P2/eta forward, eta P2 backward; the
-- link voltage follows C v1' = (Vs - v1)/Rs - P1/v1.
do
  local M = lied.model "Converter" {
    gnd = el.Ground {}, src = el.VoltageSource { V = 48 }, rs = el.Resistor { R = 0.2 },
    link = el.Node { C = 1e-3, v = 48 }, dc = el.DCDC { V = 12, eta = 0.9 },
    load = el.CurrentSource {}, sine = S.Sine { amplitude = 5, f = 10 },
    connect = { { "src.n", "gnd.p" }, { "src.p", "rs.p" }, { "rs.n", "link.p" },
                { "dc.p1", "link.p" }, { "dc.n1", "gnd.p" }, { "dc.n2", "gnd.p" },
                { "dc.p2", "load.p" }, { "load.n", "gnd.p" }, { "sine.y", "load.u" } },
  }
  local res = run(M, 0.2, "dc.P1,dc.P2,dc.forward,dc.v2,dc.i1,dc.v1,link.v,dc.P_loss")
  local P1, P2, fwd = res:column("dc.P1"), res:column("dc.P2"), res:column("dc.forward")
  local worst, nfwd, nback = 0, 0, 0
  for i = 1, #P1 do
    local want = P2[i] >= 0 and P2[i] / 0.9 or P2[i] * 0.9
    if math.abs(P2[i]) > 1e-9 then
      worst = math.max(worst, math.abs(P1[i] - want) / 60)
      if P2[i] > 0 then nfwd = nfwd + 1 else nback = nback + 1 end
      T.check((P2[i] > 0) == (fwd[i] == 1), "converter: direction at row " .. i)
    end
  end
  print(string.format("%-56s %.3g", "DC/DC converter: power balance", worst))
  T.check(worst < 1e-13, "converter: P1 = P2/eta forward, eta P2 backward: " .. worst)
  T.check(nfwd > 5 and nback > 5, "converter: the power flows both ways")
  local v2 = res:column("dc.v2")
  T.near(v2[#v2], 12, 1e-15, "converter: output voltage")
  T.near(res:column("dc.v1")[#v2], res:column("link.v")[#v2], 1e-15, "converter: input voltage")
end

T.done()
