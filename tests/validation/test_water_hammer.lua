-- examples/water_hammer.lua (a reservoir, a pipe of N undirected cells, a
-- valve closing in t_close) against the water hammer's theory and an
-- independent reference:
-- 1. the first pressure rise at the valve against Joukowsky's rho*a*v0 (2 %):
--    a = 1/sqrt(rho0*beta) from the liquid's compressibility (the medium's
--    drho/dp = rho0*beta), v0 = m0/(rho*A) the flow before the closure, less
--    what the closed valve's leakage still passes;
-- 2. the wave's period at the valve against 4*l/a (2 %): the zero crossings
--    of p - p_res after the closure;
-- 3. the pressure history at the last cell against the method of
--    characteristics written here (the linear water hammer equations
--    dp/dt + (a^2/A) dm/dx = 0, dm/dt + A dp/dx = 0, exact along x = +-a t,
--    with the reservoir's pressure at x = 0 and the valve's law at x = l),
--    for N = 25, 50, 100, 200: the error falls as N grows.
-- The discretisation (examples/water_hammer.lua): N cells of dx = l/N, the
-- volumes at the cells' centres, inertance dx/A between them and dx/(2A) at
-- both ends, so the ladder's inertances add up to l/A and its compliances
-- to l*A*rho0*beta; the pressure of the last cell is the continuum's at
-- x = l - dx/2.
local lied = require "lied"
local T = require "tests.testing"

local has_cvode = false
for _, s in ipairs(lied.core.solvers()) do has_cvode = has_cvode or s.name == "cvode" end

local WH = dofile("examples/water_hammer.lua")
-- the example's parameters (the defaults)
local l, d, p_res, p_out = 1000, 0.2, 2e6, 1e5
local dp_valve, m_valve, t0, tc, leak = 1.9e6, 15.64, 0.1, 0.05, 1e-3
local rho0, beta, pref = 995.586, 4.5e-10, 1e5
local A = math.pi * d * d / 4
local a = 1 / math.sqrt(rho0 * beta)
local stop = 6

local function run(N)
  local solver = has_cvode and { solver = "cvode", tol = 1e-8 } or { solver = "esdirk23", tol = 1e-6 }
  local res = lied.simulate(WH, { set = { N = N } }):run {
    stop = stop, interval = 1e-3, solver = solver.solver, tol = solver.tol,
    vars = string.format("vol[%d].p,valve.m_flow,res.m_flow", N),
  }
  local t, p = T.column(res, "time"), T.column(res, string.format("vol[%d].p", N))
  -- one row per time (an event writes two: keep the one after)
  local tt, pp = {}, {}
  for k = 1, #t do
    if k < #t and t[k + 1] == t[k] then goto skip end
    tt[#tt + 1], pp[#pp + 1] = t[k], p[k]
    ::skip::
  end
  return tt, pp, res
end

-- ---- the method of characteristics ----------------------------------------------------
-- M reaches of dx = l/M, dt = dx/a; C+ : p + B m, C- : p - B m, B = a/A. Returns the
-- times and, for each node j of nodes (x = j*dx), the pressures there at every step.
local function moc(M, nodes)
  local B, dxm = a / A, l / M
  local dt = dxm / a
  local p, m, np, nm = {}, {}, {}, {}
  for i = 0, M do p[i], m[i] = p_res, m_valve end
  local ts, ps = { 0 }, {}
  for q, j in ipairs(nodes) do ps[q] = { p[j] } end
  local n = math.floor(stop / dt + 0.5)
  for k = 1, n do
    local t = k * dt
    local y = t <= t0 and 1 or (t >= t0 + tc and 0 or 1 - (t - t0) / tc)
    local f = leak + (1 - leak) * y
    local K = dp_valve / (m_valve * m_valve * f * f)
    -- the reservoir: p = p_res, C- from node 1
    np[0] = p_res
    nm[0] = (p_res - (p[1] - B * m[1])) / B
    for i = 1, M - 1 do
      local cp, cm = p[i - 1] + B * m[i - 1], p[i + 1] - B * m[i + 1]
      np[i], nm[i] = 0.5 * (cp + cm), (cp - cm) / (2 * B)
    end
    -- the valve: C+ from node M-1 and p - p_out = K m|m|
    local D = p[M - 1] + B * m[M - 1] - p_out
    nm[M] = 2 * D / (B + math.sqrt(B * B + 4 * K * math.abs(D)))
    np[M] = p[M - 1] + B * m[M - 1] - B * nm[M]
    p, np, m, nm = np, p, nm, m
    ts[#ts + 1] = t
    for q, j in ipairs(nodes) do ps[q][#ps[q] + 1] = p[j] end
  end
  return ts, ps, dt
end
local function interp(ts, ps, dt, t)
  local k = math.floor(t / dt)
  if k >= #ts - 1 then return ps[#ps] end
  local u = t / dt - k
  return ps[k + 1] * (1 - u) + ps[k + 2] * u
end

-- ---- 1. and 2.: Joukowsky and the period (N = 100) -------------------------------------
do
  local N = 100
  local t, p, res = run(N)
  local m = T.column(res, "valve.m_flow")
  local m0 = m[1]
  T.near(m0, m_valve, 1e-9, "at rest before the closure: the open valve's flow")
  -- the flow the closed valve still leaks once the wave has arrived (at 1.5 s)
  local m_leak
  for k = 1, #t do if t[k] <= 1.5 then m_leak = T.column(res, "valve.m_flow")[k] end end
  -- the plateau between the end of the closure (+ the time the front needs to pass the
  -- last cell) and the reflection's return at t0 + 2 l/a
  local t1, t2 = t0 + tc + 0.05, t0 + 2 * l / a - 0.02
  local sum, n = 0, 0
  for k = 1, #t do if t[k] >= t1 and t[k] <= t2 then sum, n = sum + p[k], n + 1 end end
  local rise = sum / n - p[1]
  local rho = rho0 * (1 + beta * (p_res - pref))
  local v0 = m0 / (rho * A)
  local jouk = rho * a * v0
  print(string.format("N = %d: rise %.1f Pa, Joukowsky rho*a*v0 = %.1f Pa (a = %.2f m/s, v0 = %.4f m/s), " ..
    "leak %.4f kg/s", N, rise, jouk, a, v0, m_leak))
  T.check(math.abs(rise - jouk) <= 0.02 * jouk,
    string.format("first pressure rise %.1f Pa within 2 %% of Joukowsky's %.1f Pa", rise, jouk))
  -- the leak keeps its part of the flow: the rise is rho*a*(v0 - v_leak) closer still
  T.near(rise, jouk * (1 - m_leak / m0), 2e-3 * jouk, "the rise less the leaking flow's share")
  -- the period: downward zero crossings of p - p_res after the closure
  local zs = {}
  for k = 2, #t do
    local a1, a2 = p[k - 1] - p_res, p[k] - p_res
    if t[k] > t0 + tc and a1 > 0 and a2 <= 0 then zs[#zs + 1] = t[k - 1] + (t[k] - t[k - 1]) * a1 / (a1 - a2) end
  end
  local period = 4 * l / a
  if T.check(#zs >= 2, "the wave comes back (" .. #zs .. " crossings)") then
    local measured = (zs[#zs] - zs[1]) / (#zs - 1)
    print(string.format("period %.5f s, 4 l/a = %.5f s", measured, period))
    T.check(math.abs(measured - period) <= 0.02 * period,
      string.format("period %.5f s within 2 %% of 4 l/a = %.5f s", measured, period))
  end
end

-- ---- 3. against the method of characteristics: convergence in N ------------------------
do
  local Ns = has_cvode and { 25, 50, 100, 200 } or { 25, 50, 100 }
  local M = 1600 -- reaches; x = l - dx/2 of every N is a node
  local rho = rho0 * (1 + beta * (p_res - pref))
  local jouk = rho * a * m_valve / (rho * A)
  local nodes = {}
  for q, N in ipairs(Ns) do nodes[q] = M - M // (2 * N) end
  local ts, ps, dt = moc(M, nodes)
  local errs = {}
  for q, N in ipairs(Ns) do
    local t, p = run(N)
    local s2 = 0
    for k = 1, #t do
      local e = p[k] - interp(ts, ps[q], dt, t[k])
      s2 = s2 + e * e
    end
    errs[#errs + 1] = math.sqrt(s2 / #t) / jouk
    print(string.format("N = %d: rms difference from the characteristics %.4g of rho*a*v0", N, errs[#errs]))
  end
  for k = 2, #errs do
    T.check(errs[k] < 0.75 * errs[k - 1], string.format("N = %d: the error falls (%.4g after %.4g)",
      Ns[k], errs[k], errs[k - 1]))
  end
  T.check(errs[#errs] < 0.05, string.format("N = %d: within 5 %% of rho*a*v0 (rms %.4g)", Ns[#Ns], errs[#errs]))
end

T.done()
