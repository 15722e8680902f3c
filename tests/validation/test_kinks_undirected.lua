-- Kinks of the undirected streams and the turbomachines (LIED_ZC_KINK,
-- docs/events.md "Kinks"): one flow reversal per block kind, driven through
-- by the adaptive solvers at several tolerances, against a reference written
-- in this file (a closed form, or RK4 written out here with every kink at a
-- known time and the law's branch frozen between kinks). The error is the
-- solvers' weights over the run, as in test_kinks.lua: max over the output
-- points and the states of |x - ref| / (tol (1 + max |ref|)).
--   upwind (Volume)      an undirected gas Volume whose rear flow reverses:
--                        M' = m, U' = m (m >= 0 ? h_in : gamma U / M)
--   |m|, upwind cell     an undirected CounterFlowHX (N = 2, ideal gas) whose
--   (CounterFlowHX)      side a's flow reverses: |m| and the upwind neighbour
--                        of each cell switch
--   mixing weights       a Junction mixing a reversing inflow with a steady
--   (Junction)           one into a Volume: U' = B h2 + max(m1, 0) h1 +
--                        min(m1, 0) h2 (closed form)
--   stream b's pass      a TwoPhaseCounterFlowHX whose stream b reverses: the
--   (TwoPhase...HX)      wall takes the heats of the pass of b's sign
--   efficiency, branch   a Compressor on a held shaft whose flow reverses and
--   (Compressor)         passes its ratio of 1, feeding a Heater: dh/eta and
--                        eta dh switch where dh_s m changes sign
-- The flows are prescribed (a directed MassFlowSource of m = A sin(w t)
-- through ConnectInletFore), so the kinks fall at known times.
local lied = require "lied"
local S = require "lied.signals"
local tf = require "lied.thermofluid"
local tfu = require "lied.undirected"
local turbo = require "lied.turbo"
local rot = require "lied.rotational"
local T = require "tests.testing"
local K = require "tests.kinks"

-- The reference integrator: RK4 of x' = f(t, x, tm) over [0, stop], with
-- steps ending exactly at every output point (interval apart) and at every
-- kink time in `kinks`; tm is the midpoint of the piece between two of those
-- times, at which f decides its branch (frozen over the piece). Returns
-- exact(t) at the output points.
local function reference(f, x0, kinks, stop, interval, sub)
  local cuts = {}
  local nout = math.floor(stop / interval + 0.5)
  for i = 1, nout do cuts[#cuts + 1] = i * interval end
  for _, tk in ipairs(kinks) do if tk > 0 and tk < stop then cuts[#cuts + 1] = tk end end
  table.sort(cuts)
  local at, x, t = { [string.format("%.6f", 0)] = { table.unpack(x0) } }, { table.unpack(x0) }, 0
  local n = #x0
  local function axpy(a, h, k)
    local r = {}
    for i = 1, n do r[i] = a[i] + h * k[i] end
    return r
  end
  for _, tc in ipairs(cuts) do
    if tc > t then
      local tm, h = 0.5 * (t + tc), (tc - t) / sub
      for s = 0, sub - 1 do
        local ts = t + s * h
        local k1 = f(ts, x, tm)
        local k2 = f(ts + h / 2, axpy(x, h / 2, k1), tm)
        local k3 = f(ts + h / 2, axpy(x, h / 2, k2), tm)
        local k4 = f(ts + h, axpy(x, h, k3), tm)
        for i = 1, n do x[i] = x[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) end
      end
      t = tc
    end
    at[string.format("%.6f", t)] = { table.unpack(x) }
  end
  return function(tt) return at[string.format("%.6f", tt)] end
end

-- The zeros of sin(w t) in (0, stop).
local function sine_zeros(w, stop)
  local z = {}
  for k = 1, math.floor(w * stop / math.pi) do z[#z + 1] = k * math.pi / w end
  return z
end

local R, cp = 287.05, 1005.45
local gas = tf.gas { R = R, cp = cp }
local A, w, stop, interval = 2e-3, 1.5, 10, 0.1

-- ---- upwind: an undirected Volume whose rear flow reverses ---------------------------------
do
  local M = lied.model "UVolume" {
    m = S.Sine { amplitude = A, w = w },
    src = tf.MassFlowSource { m_flow_from_input = 1, T0 = 300, medium = gas },
    i2f = tfu.ConnectInletFore { medium = gas },
    v = tfu.Volume { V = 1e-3, p0 = 1e5, T0 = 350, use_fore = 0, medium = gas },
    connect = { { "m.y", "src.m_flow_in" }, { "src.outlet", "i2f.inlet" }, { "i2f.fore", "v.rear" } },
  }
  local b = lied.build(M)
  local r0 = b:run { solver = "rk4", dt = 0.1, stop = 0.1, vars = "v.M,v.U,v.rear.h" }
  local M0, U0, h_in = r0:column("v.M")[1], r0:column("v.U")[1], r0:column("v.rear.h")[1]
  T.near(h_in, cp * 300, 1e-9 * cp * 300, "upwind (Volume): the inflow's h = cp T")
  local gamma = cp / (cp - R) -- h = cp T, u = (cp - R) T
  local exact = reference(function(t, x, tm)
    local m = A * math.sin(w * t)
    local up = math.sin(w * tm) >= 0 and h_in or gamma * x[2] / x[1]
    return { m, m * up }
  end, { M0, U0 }, sine_zeros(w, stop), stop, interval, 100)
  K.check("upwind (Volume)", b, { stop = stop, interval = interval }, { "v.M", "v.U" }, exact, 4)
end

-- ---- |m| and the upwind cell: an undirected CounterFlowHX ------------------------------------
-- side a: src (300 K) -> hx side a (N = 2) -> BoundaryFore (400 K): forwards
-- cell 1 takes the source's h and cell 2 cell 1's, rearwards cell 2 the
-- boundary's h and cell 1 cell 2's; side b at rest (equal pressures), its
-- cells heated through UA: M_a h_a,i' = |m| (up_i - h_a,i) - q_i,
-- M_b h_b,j' = q_i, q_i = (UA/N)(h_a,i - h_b,j)/cp, j = N + 1 - i.
do
  local N, UA = 2, 0.5
  local M = lied.model "UHX" {
    m = S.Sine { amplitude = A, w = w },
    src = tf.MassFlowSource { m_flow_from_input = 1, T0 = 300, medium = gas },
    i2f = tfu.ConnectInletFore { medium = gas },
    hx = tfu.CounterFlowHX { N = N, UA = UA, V_a = 1e-3, V_b = 1e-3, T0_a = 350, T0_b = 320,
                             p0_a = 1e5, p0_b = 1e5, medium_a = gas, medium_b = gas },
    fa = tfu.BoundaryFore { p0 = 1e5, T0 = 400, medium = gas },
    rb = tfu.BoundaryRear { p0 = 1e5, T0 = 320, L = 1e4, medium = gas },
    fb = tfu.BoundaryFore { p0 = 1e5, T0 = 320, medium = gas },
    connect = { { "m.y", "src.m_flow_in" }, { "src.outlet", "i2f.inlet" }, { "i2f.fore", "hx.rear_a" },
                { "hx.fore_a", "fa.rear" }, { "rb.fore", "hx.rear_b" }, { "hx.fore_b", "fb.rear" } },
  }
  local b = lied.build(M)
  local names = { "hx.h_a[1]", "hx.h_a[2]", "hx.h_b[1]", "hx.h_b[2]" }
  local r0 = b:run { solver = "rk4", dt = 0.1, stop = 0.1,
    vars = table.concat(names, ",") .. ",hx.M_a,hx.M_b,hx.rear_a.h,hx.fore_a.h_back,rb.m_flow" }
  local x0 = {}
  for k, n in ipairs(names) do x0[k] = r0:column(n)[1] end
  local Ma, Mb = r0:column("hx.M_a")[1], r0:column("hx.M_b")[1]
  local hf, hb = r0:column("hx.rear_a.h")[1], r0:column("hx.fore_a.h_back")[1]
  T.near(hf, cp * 300, 1e-9 * cp * 300, "|m| (CounterFlowHX): the forward inflow's h")
  T.near(hb, cp * 400, 1e-9 * cp * 400, "|m| (CounterFlowHX): the rearward inflow's h")
  T.near(Ma, 1e5 * 1e-3 / (R * 350) / N, 1e-12, "|m| (CounterFlowHX): the cells' fixed mass")
  local G = UA / N / cp
  local exact = reference(function(t, x, tm)
    local m = A * math.sin(w * t)
    local fwd = math.sin(w * tm) >= 0
    local up1, up2 = fwd and hf or x[2], fwd and x[1] or hb
    local q1, q2 = G * (x[1] - x[4]), G * (x[2] - x[3]) -- a1 with b2, a2 with b1
    return { (math.abs(m) * (up1 - x[1]) - q1) / Ma, (math.abs(m) * (up2 - x[2]) - q2) / Ma,
             q2 / Mb, q1 / Mb }
  end, x0, sine_zeros(w, stop), stop, interval, 100)
  K.check("|m|, upwind cell (CounterFlowHX)", b, { stop = stop, interval = interval }, names, exact, 4)
  local rb = b:run { solver = "dopri45", tol = 1e-8, stop = stop, interval = 1, vars = "rb.m_flow" }
  T.eq(rb:column("rb.m_flow")[rb:nrows()], 0, "|m| (CounterFlowHX): side b stays at rest")
end

-- ---- the equal-percentage characteristic's linear part: an undirected Valve ---------------
-- BoundaryRear (p1, inertance L) -> Valve -> BoundaryFore (p2): the flow is
-- the state, L m' = p1 - p2 - dp_ref m |m| / (m_ref f)^2 (Kv = 0: no
-- density), f = leakage + (1 - leakage) phi(y), y = 0.012 + 0.01 sin t:
-- phi = R^(y - 1) from y = 0.01 on, y / 0.01 R^(0.01 - 1) below it (the law
-- kinks at y = 0.01: sin t = -0.2).
do
  local p1, p2, L, dp_ref, m_ref, Rv, leak = 1.1e5, 1e5, 1e6, 1e5, 1, 50, 1e-3
  local M = lied.model "UValve" {
    u = S.Sine { offset = 0.012, amplitude = 0.01, w = 1 },
    rb = tfu.BoundaryRear { p0 = p1, T0 = 300, L = L, medium = gas },
    v = tfu.Valve { characteristic = 2, R = Rv, dp_ref = dp_ref, m_flow_ref = m_ref, leakage = leak,
                    medium = gas },
    fb = tfu.BoundaryFore { p0 = p2, T0 = 300, medium = gas },
    connect = { { "rb.fore", "v.rear" }, { "v.fore", "fb.rear" }, { "u.y", "v.opening" } },
  }
  local b = lied.build(M)
  local function f_of(y, lin)
    local phi = lin and y / 0.01 * Rv ^ (0.01 - 1) or Rv ^ (y - 1)
    return leak + (1 - leak) * phi
  end
  local kinks = {}
  for k = 0, 3 do
    for _, tk in ipairs { (2 * k + 1) * math.pi + math.asin(0.2), (2 * k + 2) * math.pi - math.asin(0.2) } do
      if tk < stop then kinks[#kinks + 1] = tk end
    end
  end
  local exact = reference(function(t, x, tm)
    local y = 0.012 + 0.01 * math.sin(t)
    local fv = f_of(y, 0.012 + 0.01 * math.sin(tm) < 0.01)
    return { (p1 - p2 - dp_ref * x[1] * math.abs(x[1]) / (m_ref * fv) ^ 2) / L }
  end, { 0 }, kinks, stop, interval, 100)
  K.check("linear part (Valve, equal percentage)", b, { stop = stop, interval = interval }, { "rb.m_flow" }, exact,
    #kinks, #kinks)
end

-- ---- mixing weights: a Junction of a reversing and a steady inflow ---------------------------
-- rear[1]: m1 = A sin(w t) at T1, rear[2]: B at T2 (B > A: the outflow to the
-- Volume stays positive). Out of fore[1] the mix by the weights max(q, 0):
-- U' = (m1 + B) h_mix = B h2 + m1 (m1 >= 0 ? h1 : h2), M' = m1 + B:
--   M(t) = M0 + B t + F(t), F(t) = (A/w)(1 - cos w t)
--   U(t) = U0 + B h2 t + sum over the half periods of F's increments times
--          h1 (sin >= 0) or h2 (sin < 0).
do
  local B, T1, T2 = 5e-3, 300, 400
  local M = lied.model "UJunction" {
    m = S.Sine { amplitude = A, w = w },
    s1 = tf.MassFlowSource { m_flow_from_input = 1, T0 = T1, medium = gas },
    s2 = tf.MassFlowSource { m_flow = B, T0 = T2, medium = gas },
    c1 = tfu.ConnectInletFore { medium = gas },
    c2 = tfu.ConnectInletFore { medium = gas },
    j = tfu.Junction { n_rear = 2, n_fore = 1, medium = gas },
    v = tfu.Volume { V = 1e-3, p0 = 1e5, T0 = 350, use_fore = 0, medium = gas },
    connect = { { "m.y", "s1.m_flow_in" }, { "s1.outlet", "c1.inlet" }, { "s2.outlet", "c2.inlet" },
                { "c1.fore", "j.rear[1]" }, { "c2.fore", "j.rear[2]" }, { "j.fore[1]", "v.rear" } },
  }
  local b = lied.build(M)
  local r0 = b:run { solver = "rk4", dt = 0.1, stop = 0.1, vars = "v.M,v.U" }
  local M0, U0 = r0:column("v.M")[1], r0:column("v.U")[1]
  local h1, h2 = cp * T1, cp * T2
  local function F(t) return A / w * (1 - math.cos(w * t)) end
  local function exact(t)
    local U, k = U0 + B * h2 * t, 0
    while k * math.pi / w < t do
      local a, e = k * math.pi / w, math.min((k + 1) * math.pi / w, t)
      U = U + (k % 2 == 0 and h1 or h2) * (F(e) - F(a))
      k = k + 1
    end
    return { M0 + B * t + F(t), U }
  end
  K.check("mixing weights (Junction)", b, { stop = stop, interval = interval }, { "v.M", "v.U" }, exact, 4)
end

-- ---- efficiency and branch: a Compressor whose flow reverses ---------------------------------
-- src (m = A sin(w t), T_in) -> comp (held at W) -> Heater -> Sink. The
-- Heater: M h' = |m| (h_in + dh(m) - h) (docs/thermofluid.md), dh(m) =
-- tanh(W/w_small) (dh_s m > 0 ? dh_s/eta : eta dh_s), dh_s = cp T_in
-- (pr^(R/cp) - 1) (a gas of constant cp), pr = x + 1, or k^x below 1, x =
-- n|n| - skew n phi - phi|phi| (docs/turbo.md). The flow passes 0 (eta's
-- switch, with dh_s > 0) and phi* where x = 0 (pr = 1: dh_s and the
-- branch), both ways, every period.
do
  local C = { w_ref = 2500, m_ref = 0.5, skew = 1, k = 2, eta = 0.8, w_small = 50 }
  local W, Am, T_in = 1000, 0.5, 300
  local M = lied.model "UComp" {
    m = S.Sine { amplitude = Am, w = w },
    src = tf.MassFlowSource { m_flow_from_input = 1, T0 = T_in, medium = gas },
    comp = turbo.Compressor { w_ref = C.w_ref, m_ref = C.m_ref, skew = C.skew, k = C.k,
                              eta = C.eta, w_small = C.w_small, medium = gas },
    h = tf.Heater { V = 0.05, T0 = 350, medium = gas },
    snk = tf.Sink { medium = gas },
    shaft = rot.Speed { w_ref = W, w = W, T = 0.01 },
    connect = { { "m.y", "src.m_flow_in" }, { "src.outlet", "comp.inlet" }, { "comp.outlet", "h.inlet" },
                { "h.outlet", "snk.inlet" }, { "shaft.flange", "comp.flange" } },
  }
  local b = lied.build(M)
  local r0 = b:run { solver = "rk4", dt = 0.1, stop = 0.1, vars = "h.h,h.M,comp.T_in" }
  local h0, Mass = r0:column("h.h")[1], r0:column("h.M")[1]
  T.near(r0:column("comp.T_in")[1], T_in, 1e-9, "Compressor: the inflow at T_in")
  local n = W / C.w_ref
  local th = math.tanh(W / C.w_small)
  -- phi* > 0 where x = 0: phi^2 + skew n phi - n^2 = 0
  local phis = (-C.skew * n + math.sqrt(C.skew * C.skew * n * n + 4 * n * n)) / 2
  local ms = phis * C.m_ref
  T.check(ms < Am, "Compressor: the flow passes the ratio of 1")
  local kinks = sine_zeros(w, stop)
  local a0 = math.asin(ms / Am)
  for k = 0, math.floor(w * stop / (2 * math.pi)) do
    kinks[#kinks + 1] = (a0 + 2 * math.pi * k) / w
    kinks[#kinks + 1] = (math.pi - a0 + 2 * math.pi * k) / w
  end
  local exact = reference(function(t, x, tm)
    local m = Am * math.sin(w * t)
    local mm = Am * math.sin(w * tm) -- the branch of the piece
    local phi = m / C.m_ref
    local xx = n * math.abs(n) - C.skew * n * phi - phi * math.abs(phi)
    local xm = n * math.abs(n) - C.skew * n * mm / C.m_ref - (mm / C.m_ref) * math.abs(mm / C.m_ref)
    local pr = xm < 0 and C.k ^ xx or xx + 1
    local dhs = cp * T_in * (pr ^ (R / cp) - 1)
    local d = th * ((xm > 0) == (mm > 0) and dhs / C.eta or C.eta * dhs)
    return { math.abs(m) * (cp * T_in + d - x[1]) / Mass }
  end, { h0 }, kinks, stop, interval, 100)
  K.check("efficiency, ratio 1 (Compressor)", b, { stop = stop, interval = interval }, { "h.h" }, exact, 8)
end

-- ---- stream b of a TwoPhaseCounterFlowHX: the wall takes the pass of b's sign ----------------
-- The refrigerant (R134a vapour) rests between two boundaries at its own
-- pressure and exchanges no heat (A_a = 0), so the wall (N = 2 cells of
-- C_w/N) is heated by stream b alone (an ideal gas, T = h/cp): a pass of
-- capacity rate C = |m| cp meets the wall's cells in turn (forwards cell 2
-- first, from the source's T1; rearwards cell 1 first, from the fore
-- boundary's T2), each taking q = C (1 - exp(-G/C)) (T - T_w), G = UA_b/N,
-- the stream leaving it at T - q/C: (C_w/N) T_w,i' = q_i.
do
  local N, UA_b, C_w, T1, T2 = 2, 2, 400, 300, 340
  local R134a = tf.R134a
  local M = lied.model "URHXb" {
    ra = tfu.BoundaryRear { p0 = 3e5, T0 = 283, L = 1e4, medium = R134a },
    fa = tfu.BoundaryFore { p0 = 3e5, T0 = 283, medium = R134a },
    hx = tfu.TwoPhaseCounterFlowHX { N = N, A_a = 0, UA_b = UA_b, C_w = C_w, T0_w = 320, p0_a = 3e5,
                                     T0_a = 283, L_fore = 1e4, medium_a = R134a, medium_b = gas },
    m = S.Sine { amplitude = A, w = w },
    src = tf.MassFlowSource { m_flow_from_input = 1, T0 = T1, medium = gas },
    i2f = tfu.ConnectInletFore { medium = gas },
    fb = tfu.BoundaryFore { p0 = 1e5, T0 = T2, medium = gas },
    connect = { { "ra.fore", "hx.rear_a" }, { "hx.fore_a", "fa.rear" }, { "m.y", "src.m_flow_in" },
                { "src.outlet", "i2f.inlet" }, { "i2f.fore", "hx.rear_b" }, { "hx.fore_b", "fb.rear" } },
  }
  local b = lied.build(M)
  local names = { "hx.T_w[1]", "hx.T_w[2]" }
  local G, Cc = UA_b / N, C_w / N
  local exact = reference(function(t, x, tm)
    local m = A * math.sin(w * t)
    local C = math.abs(m) * cp
    local e = C > 0 and C * (1 - math.exp(-G / C)) or 0
    local q, Tin = {}, math.sin(w * tm) >= 0 and T1 or T2
    local order = math.sin(w * tm) >= 0 and { 2, 1 } or { 1, 2 }
    for _, i in ipairs(order) do
      q[i] = e * (Tin - x[i])
      if C > 0 then Tin = Tin - q[i] / C end
    end
    return { q[1] / Cc, q[2] / Cc }
  end, { 320, 320 }, sine_zeros(w, stop), stop, interval, 100)
  K.check("stream b (TwoPhaseCounterFlowHX)", b, { stop = stop, interval = interval }, names, exact, 4)
  local r = b:run { solver = "dopri45", tol = 1e-8, stop = stop, interval = 1, vars = "hx.m_flow,hx.p" }
  T.check(math.abs(r:column("hx.m_flow")[r:nrows()]) < 1e-9, "stream b (TwoPhaseCounterFlowHX): the refrigerant rests")
end

K.report()
T.done()
