-- Kinks of the refrigeration library and the thermofluid exchangers
-- declared as kink functions (LIED_ZC_KINK, docs/events.md "Kinks"), each
-- driven through by the adaptive solvers at several tolerances against an
-- independent reference. The error measure is test_kinks.lua's: max over
-- the output points and variables of |x - ref| / (tol (1 + max |ref|)).
--
--   NTU       CounterFlowNTU, ParallelFlowNTU, CrossFlowNTU: stream a
--             reverses (|m| in its capacity rate), and in cross flow the
--             smaller capacity rate changes sides; stream b (a constant
--             flow) is integrated by a Heater: M h' = m_b (h_b,in - h) + Q(t),
--             Q = eps C_min dT of the law (written out here), by quadrature
--             between the kinks (closed form of the linear ODE).
--   Compressor  the efficiency's branch (dh_s m changes sign where the
--             outlet pressure crosses the suction's): a fixed flow, the
--             speed a sine around the speed whose displacement is the
--             flow, the outlet into a Heater: h2(t) from R134a's h_ps (the
--             table the compressor calls) and the law, the Heater's linear
--             ODE by quadrature between the kinks (closed-form times).
--   Receiver  its inflow reversing (the upwind enthalpy) and its level
--             crossing the outlet's mouth: a hand-written RK4 on (M, U,
--             m_out) with R134a's (rho, u) inverse, the kinks located by
--             bisection on the step, each step on one branch.
local lied = require "lied"
local S = require "lied.signals"
local tf = require "lied.thermofluid"
local rf = require "lied.refrigeration"
local T = require "tests.testing"

local have_cvode = pcall(function()
  lied.build(lied.model "C" { i = S.Integrator {}, c = S.Constant {}, connect = { { "c.y", "i.u" } } })
    :run { solver = "cvode", stop = 1, out = "none" }
end)
local tols = { 1e-5, 1e-6, 1e-7, 1e-8 }
-- cvode's global error is 10x to 100x its tolerance on smooth problems too
-- (docs/solvers.md, as test_kinks.lua): its bound is that
local bound = { dopri45 = 10, esdirk23 = 10, cvode = 100 }
local solvers = { "dopri45", "esdirk23" }
if have_cvode then solvers[#solvers + 1] = "cvode" end
local STOP, DT = 10, 0.1

-- ref[k][j]: variable j at output point k (time (k - 1) DT)
local function check(kind, built, names, ref, kinks, opts)
  local row = {}
  for _, sv in ipairs(solvers) do
    local cells = {}
    for _, tol in ipairs(tols) do
      local o = { solver = sv, tol = tol, stop = STOP, interval = DT, vars = table.concat(names, ",") }
      for k, v in pairs(opts or {}) do o[k] = v end
      local res, st, msg = built:run(o)
      T.check(msg == nil, string.format("%s, %s at tol %g: %s", kind, sv, tol, tostring(msg)))
      local t, err, big = res:column("time"), {}, {}
      for j = 1, #names do err[j], big[j] = 0, 0 end
      for i = 1, #t do
        local k = math.floor(t[i] / DT + 0.5) + 1
        if math.abs(t[i] - (k - 1) * DT) < 1e-9 and not (i > 1 and t[i] == t[i - 1]) then
          for j, n in ipairs(names) do
            err[j] = math.max(err[j], math.abs(res:column(n)[i] - ref[k][j]))
            big[j] = math.max(big[j], math.abs(ref[k][j]))
          end
        end
      end
      local w = 0
      for j = 1, #names do w = math.max(w, err[j] / (tol * (1 + big[j]))) end
      cells[#cells + 1] = string.format("%.2g", w)
      T.check(w <= bound[sv], string.format("%s, %s at tol %g: %.3g x tol (at most %g)", kind, sv,
        tol, w, bound[sv]))
      T.check(st.kinks >= kinks, string.format("%s, %s at tol %g: %d kinks located (%d expected)",
        kind, sv, tol, st.kinks, kinks))
    end
    row[#row + 1] = sv .. " " .. table.concat(cells, ", ")
  end
  print(string.format("%-22s %s", kind, table.concat(row, "; ")))
end

-- int_a^b f by 5-point Gauss-Legendre on 4 equal parts
local gx = { 0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640, 0.9061798459386640 }
local gw = { 0.5688888888888889, 0.4786286704993665, 0.4786286704993665, 0.2369268850561891,
             0.2369268850561891 }
local function gauss(f, a, b)
  local s, n = 0, 4
  local d = (b - a) / n
  for p = 0, n - 1 do
    local c, r = a + (p + 0.5) * d, 0.5 * d
    for q = 1, 5 do s = s + gw[q] * r * f(c + r * gx[q]) end
  end
  return s
end

-- The output points of x' = lam (g(t) - x), x(0) = x0: by quadrature of the
-- closed form over each output interval, split at the times in kinks (g
-- kinks there).
local function linear_ode(lam, x0, g, kinks)
  table.sort(kinks)
  local ref, x = { { x0 } }, x0
  for k = 1, math.floor(STOP / DT + 0.5) do
    local a, b = (k - 1) * DT, k * DT
    local pts = { a }
    for _, tk in ipairs(kinks) do if tk > a and tk < b then pts[#pts + 1] = tk end end
    pts[#pts + 1] = b
    local I = 0
    for q = 1, #pts - 1 do
      I = I + gauss(function(s) return lam * math.exp(-lam * (b - s)) * g(s) end, pts[q], pts[q + 1])
    end
    x = math.exp(-lam * DT) * x + I
    ref[k + 1] = { x }
  end
  return ref
end

-- ---- NTU exchangers: stream a reversing ---------------------------------------------
do
  local UA, A, w, mb = 1000, 0.02, 1.5, 0.01
  local Ta, Tb = 350, 290
  local eps = {
    CounterFlowNTU = function(N, C)
      local x = N * (1 - C)
      if x < 1e-9 then return N / (1 + N) end
      return (1 - math.exp(-x)) / (1 - C * math.exp(-x))
    end,
    ParallelFlowNTU = function(N, C) return (1 - math.exp(-N * (1 + C))) / (1 + C) end,
    CrossFlowNTU = function(N, C)
      if C < 1e-12 then return 1 - math.exp(-N) end
      return 1 - math.exp(N ^ 0.22 / C * (math.exp(-C * N ^ 0.78) - 1))
    end,
  }
  for _, cls in ipairs { "CounterFlowNTU", "ParallelFlowNTU", "CrossFlowNTU" } do
    local M = lied.model "NTU" {
      ma = S.Sine { amplitude = A, w = w },
      a = tf.MassFlowSource { m_flow_from_input = 1, T0 = Ta },
      x = tf[cls] { UA = UA },
      ska = tf.Sink {},
      b = tf.MassFlowSource { m_flow = mb, T0 = Tb },
      h = tf.Heater { V = 1e-3, T0 = Tb },
      skb = tf.Sink {},
      connect = { { "ma.y", "a.m_flow_in" }, { "a.outlet", "x.inlet_a" }, { "x.outlet_a", "ska.inlet" },
                  { "b.outlet", "x.inlet_b" }, { "x.outlet_b", "h.inlet" }, { "h.outlet", "skb.inlet" } },
    }
    local built = lied.build(M)
    local r0 = built:run { solver = "rk4", dt = 0.1, stop = 0.1, vars = "h.h,h.M,x.inlet_a.h,x.inlet_b.h" }
    local h0, Mass, hb = r0:column("h.h")[1], r0:column("h.M")[1], r0:column("x.inlet_b.h")[1]
    local cp = (r0:column("x.inlet_a.h")[1] - hb) / (Ta - Tb) -- the liquid's h = cp (T - T_ref)
    -- u = h - h_b,in: M u' = m_b (Q/m_b - u), Q = eps C_min dT (the law, constant cp)
    local function Q(s)
      local Ca, Cb = math.abs(A * math.sin(w * s)) * cp, mb * cp
      local Cmin, Cmax = math.min(Ca, Cb), math.max(Ca, Cb)
      if Cmin <= 0 then return 0 end
      return eps[cls](UA / Cmin, Cmin / Cmax) * Cmin * (Ta - Tb)
    end
    local kinks, n = {}, 0
    for k = 0, math.floor(w * STOP / math.pi) do
      kinks[#kinks + 1] = k * math.pi / w -- a reverses
      n = n + 1
      if cls == "CrossFlowNTU" then -- |m_a| = m_b: C_min changes sides
        local a0 = math.asin(mb / A)
        kinks[#kinks + 1], kinks[#kinks + 2] = (k * math.pi + a0) / w, (k * math.pi + math.pi - a0) / w
        n = n + 2
      end
    end
    local ref = linear_ode(mb / Mass, h0 - hb, function(s) return Q(s) / mb end, kinks)
    for k = 1, #ref do ref[k][1] = ref[k][1] + hb end
    check(cls, built, { "h.h" }, ref, n - 1) -- the one at t = 0 not counted
  end
end

-- ---- Compressor: the efficiency's branch at a pressure ratio of 1 ---------------------
do
  local R = tf.R134a
  local p1, T1, m, V_d, eta_s, eta_v, k, w_small = 3e5, 300, 0.01, 2e-5, 0.7, 0.9, 1e9, 1
  local h1 = R:h_pT(p1, T1)
  local rho1, s1 = R:rho_ph(p1, h1), R:s_ph(p1, h1)
  local ws = 2 * math.pi * m / (eta_v * V_d * rho1) -- displacement = flow: p2 = p1
  local wa, om = 0.25 * ws, 1.3
  local M = lied.model "Comp" {
    src = tf.MassFlowSource { m_flow = m, p0 = p1, T0 = T1, medium = R },
    w = S.Sine { offset = ws, amplitude = wa, w = om },
    comp = rf.Compressor { V_d = V_d, eta_s = eta_s, eta_v = eta_v, k = k, w_small = w_small, medium = R },
    h = tf.Heater { V = 1e-4, p0 = p1, T0 = 320, medium = R },
    snk = tf.Sink { p0 = p1, medium = R },
    connect = { { "src.outlet", "comp.inlet" }, { "w.y", "comp.speed" }, { "comp.outlet", "h.inlet" },
                { "h.outlet", "snk.inlet" } },
  }
  local built = lied.build(M)
  local r0 = built:run { solver = "rk4", dt = 0.1, stop = 0.1, vars = "h.h,h.M" }
  local h0, Mass = r0:column("h.h")[1], r0:column("h.M")[1]
  -- the outlet's enthalpy by the law (docs/refrigeration.md, "Compressor")
  local function h2(s)
    local wv = ws + wa * math.sin(om * s)
    local p2 = p1 + k * (eta_v * V_d * wv / (2 * math.pi) * rho1 - m) / rho1
    local dh_s = R:h_ps(p2, s1) - h1
    local dh_e = dh_s * m > 0 and dh_s / eta_s or eta_s * dh_s
    return h1 + dh_e * math.tanh(wv / w_small)
  end
  local kinks = {}
  for j = 0, math.floor(om * STOP / math.pi) do kinks[#kinks + 1] = j * math.pi / om end
  check("Compressor", built, { "h.h" }, linear_ode(m / Mass, h0, h2, kinks), #kinks - 1)
end

-- ---- Receiver, Accumulator: the inflow reversing, the level crossing the mouth ------
-- A vessel of R134a fed by m_in = m_i + A sin(w t) of subcooled liquid (the
-- content's own h while it flows back), drained through a linear drop to a
-- sink (its outflow a state: L m_out' = p - p_s - k1 m_out). The receiver's
-- level falls through its mouth b, below which vapour leaves with the
-- liquid; the accumulator's rises to 1 - b, above which liquid leaves with
-- the vapour.
local function vessel(cls, level0, b, mi0)
  local R = tf.R134a
  local accumulator = cls == "Accumulator"
  local V, p0, L, k1, ps = 1e-3, 1e6, 1e6, 1e7, 0.9e6
  local A, w, pin, Tin, m0 = 0.02, 1, 1e6, 300, 0.01
  local M = lied.model "Vessel" {
    mi = S.Sine { offset = mi0, amplitude = A, w = w },
    src = tf.MassFlowSource { m_flow_from_input = 1, p0 = pin, T0 = Tin, medium = R },
    rcv = rf[cls] { V = V, p0 = p0, level0 = level0, level_mouth = b, L = L, m_flow = m0, medium = R },
    d = tf.LinearQuadraticDrop { k1 = k1, k2 = 0, medium = R },
    snk = tf.Sink { p0 = ps, medium = R },
    connect = { { "mi.y", "src.m_flow_in" }, { "src.outlet", "rcv.inlet" }, { "rcv.outlet", "d.inlet" },
                { "d.outlet", "snk.inlet" } },
  }
  local built = lied.build(M)
  local hin = R:h_pT(pin, Tin)
  -- the content and what leaves (docs/refrigeration.md, "Receiver and Accumulator")
  local function content(Mc, U)
    local rho, u = Mc / V, U / Mc
    local p, h = R:p_rhou(rho, u), R:h_rhou(rho, u)
    local st = R:state_ph(p, h)
    if st.phase ~= 2 then return p, h, h, st.phase == 0 and 1 or 0 end
    local level = (1 - st.x) * rho / R:rho_liq(p)
    local x_out
    if accumulator then
      x_out = 1 - level >= b and 1 or 1 - (1 - st.x) * (1 - (1 - level) / b)
    else
      x_out = level >= b and 0 or st.x * (1 - level / b)
    end
    return p, h, R:h_liq(p) + x_out * (R:h_vap(p) - R:h_liq(p)), level
  end
  local function f(t, y)
    local p, h, hout = content(y[1], y[2])
    local mi = mi0 + A * math.sin(w * t)
    return { mi - y[3], mi * (mi >= 0 and hin or h) - y[3] * hout, (p - ps - k1 * y[3]) / L }
  end
  local function rk4(t, y, dt)
    local function add(a, c, k) return { a[1] + c * k[1], a[2] + c * k[2], a[3] + c * k[3] } end
    local k1_ = f(t, y)
    local k2 = f(t + dt / 2, add(y, dt / 2, k1_))
    local k3 = f(t + dt / 2, add(y, dt / 2, k2))
    local k4 = f(t + dt, add(y, dt, k3))
    local r = {}
    for j = 1, 3 do r[j] = y[j] + dt / 6 * (k1_[j] + 2 * k2[j] + 2 * k3[j] + k4[j]) end
    return r
  end
  local function zmouth(y)
    local level = select(4, content(y[1], y[2]))
    return accumulator and 1 - level - b or level - b
  end
  -- the inflow's reversals: mi0 + A sin(w t) = 0
  local rev = {}
  local a0 = math.asin(-mi0 / A)
  for j = 0, math.floor(w * STOP / math.pi) + 1 do
    rev[#rev + 1] = (2 * j * math.pi + a0) / w
    rev[#rev + 1] = (2 * j * math.pi + math.pi - a0) / w
  end
  table.sort(rev)
  local function next_rev(t)
    for _, r in ipairs(rev) do if r > t + 1e-12 then return r end end
    return math.huge
  end
  -- RK4 of step at most H; a step never crosses the inflow's reversals (known
  -- times) nor the mouth (located by bisection on the step's length)
  local function reference(H)
    local r0 = built:run { solver = "rk4", dt = 0.1, stop = 0.1, vars = "rcv.M,rcv.U,rcv.m_flow" }
    local y = { r0:column("rcv.M")[1], r0:column("rcv.U")[1], r0:column("rcv.m_flow")[1] }
    local ref, t, nk, nm = { { y[1], y[2], y[3] } }, 0, 0, 0
    for k = 1, math.floor(STOP / DT + 0.5) do
      local tk = k * DT
      while t < tk - 1e-12 do
        local dt = math.min(H, tk - t)
        local r = next_rev(t)
        if r < t + dt - 1e-12 then dt, nk = r - t, nk + 1 end
        local yn = rk4(t, y, dt)
        if (zmouth(y) > 0) ~= (zmouth(yn) > 0) then -- the mouth: bisect the step
          local lo, hi = 0, dt
          while hi - lo > 1e-13 do
            local mid = 0.5 * (lo + hi)
            if (zmouth(rk4(t, y, mid)) > 0) == (zmouth(y) > 0) then lo = mid else hi = mid end
          end
          dt, nk, nm = hi, nk + 1, nm + 1
          yn = rk4(t, y, dt)
        end
        y, t = yn, t + dt
      end
      ref[k + 1] = { y[1], y[2], y[3] }
    end
    return ref, nk, nm
  end
  local ref, nk, nm = reference(2.5e-3)
  local ref2 = reference(1.25e-3)
  local d = 0
  for k = 1, #ref do d = math.max(d, math.abs(ref[k][1] - ref2[k][1]) / ref[k][1]) end
  T.check(d < 1e-11, string.format(cls .. ": the reference's steps halved change M by %.2g (relative)", d))
  T.check(nk - nm >= 2 and nm >= 1, string.format("%s: the inflow reversed %d times, the level crossed the mouth %d times", cls, nk - nm, nm))
  check(cls, built, { "rcv.M", "rcv.U", "rcv.m_flow" }, ref, nk)
end
vessel("Receiver", 0.28, 0.27, 0)
vessel("Accumulator", 0.7, 0.27, 0.01)

return T.done()
