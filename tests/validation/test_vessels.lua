-- Validation of examples/vessels.lua against a hand-written ODE of the same
-- physics (docs/domains.md section 1), integrated here with its own RK4.
-- Also: reversed flow (t2 highest), conservation of water, convergence to the
-- common level, and one factorisation of the constant linear section per run.
local lied = require "lied"
local T = require "tests.testing"

local Vessels = dofile("examples/vessels.lua")

-- ---- the hand-written model ---------------------------------------------
-- States y = {l1, l2, l3, m1, m2}: levels [m] and the mass flows [kg/s] out of
-- t1 (through p1) and into t2 (through p2); the flow into t3 is m1 - m2.
-- Along a stream the total pressure drops by the valve losses and by the
-- inertial pressure L*dm/dt of every valve passed (tanks and splitter have no
-- inertance):
--   t1 -> t2:  L*dm1 + L*dm2        = P1 - P2 - dp(m1) - dp(m2)
--   t1 -> t3:  L*dm1 + L*(dm1 - dm2) = P1 - P3 - dp(m1) - dp(m1 - m2)
-- with P_i = p_env + rho*g*l_i, dp(m) = 0.5*dp_ref*(u + u*|u|), u = m/(rho*v_ref).
local rho, g, p_env, A = 1000, 9.81, 1e5, 0.1
local dp_ref, v_ref, L = 1e4, 1e-3, 1e3

local function dp(m)
  local u = m / (rho * v_ref)
  return 0.5 * dp_ref * (u + u * math.abs(u))
end

local function f(y)
  local l1, l2, l3, m1, m2 = y[1], y[2], y[3], y[4], y[5]
  local m3 = m1 - m2
  local P1, P2, P3 = p_env + rho * g * l1, p_env + rho * g * l2, p_env + rho * g * l3
  -- [L  L; 2L -L] [dm1; dm2] = [b1; b2], solved by Cramer's rule
  local a11, a12, b1 = L, L, P1 - P2 - dp(m1) - dp(m2)
  local a21, a22, b2 = 2 * L, -L, P1 - P3 - dp(m1) - dp(m3)
  local det = a11 * a22 - a12 * a21
  local dm1 = (b1 * a22 - a12 * b2) / det
  local dm2 = (a11 * b2 - a21 * b1) / det
  return { -m1 / (rho * A), m2 / (rho * A), m3 / (rho * A), dm1, dm2 }
end

local function rk4(y, h)
  local function axpy(a, x, z)
    local r = {}
    for i = 1, #z do r[i] = z[i] + a * x[i] end
    return r
  end
  local k1 = f(y)
  local k2 = f(axpy(h / 2, k1, y))
  local k3 = f(axpy(h / 2, k2, y))
  local k4 = f(axpy(h, k3, y))
  local r = {}
  for i = 1, #y do r[i] = y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) end
  return r
end

-- ---- compare --------------------------------------------------------------
local names = { "t1.level", "t2.level", "t3.level", "p1.m_flow", "p2.m_flow", "p3.m_flow" }

-- Simulate `model` from levels l0 with rk4 at dt = 0.01 over 0..300 s, recording
-- every step, and compare with the hand ODE. Returns the library's result.
local function validate(label, model, l0)
  local dt, stop = 0.01, 300
  local sim = lied.simulate(model, { interval = dt })
  local res, stats = sim:run()
  T.eq(res:nrows(), 30001, label .. ": rows")
  local col = {}
  for i, n in ipairs(names) do col[i] = T.column(res, n) end
  local time = T.column(res, "time")
  local y = { l0[1], l0[2], l0[3], 0, 0 }
  local maxerr, scale = {}, {}
  for i = 1, #names do maxerr[i], scale[i] = 0, 0 end
  for r = 1, res:nrows() do
    if r > 1 then y = rk4(y, dt) end
    local ref = { y[1], y[2], y[3], y[4], y[5], y[4] - y[5] }
    for i = 1, #names do
      maxerr[i] = math.max(maxerr[i], math.abs(col[i][r] - ref[i]))
      scale[i] = math.max(scale[i], math.abs(ref[i]))
    end
  end
  T.near(time[#time], stop, 1e-9, label .. ": end time")
  for i, n in ipairs(names) do
    local rel = maxerr[i] / scale[i]
    io.stdout:write(string.format("%s: %-10s max |lied - hand| = %.3g (relative %.3g)\n",
      label, n, maxerr[i], rel))
    T.check(rel <= 1e-6, string.format("%s: %s relative error %.3g > 1e-6", label, n, rel))
  end
  -- total water volume
  local v0 = A * (l0[1] + l0[2] + l0[3])
  local worst = 0
  for r = 1, res:nrows() do
    local v = A * (col[1][r] + col[2][r] + col[3][r])
    worst = math.max(worst, math.abs(v - v0) / v0)
  end
  io.stdout:write(string.format("%s: water volume relative drift %.3g\n", label, worst))
  T.check(worst <= 1e-10, label .. ": water volume conserved to 1e-10 (drift " .. worst .. ")")
  -- the constant linear section is factorised once per run
  T.eq(stats.factorisations, 1, label .. ": factorisations in the run")
  T.eq(sim.model:info().factorisations, 1, label .. ": factorisations in the model's info")
  return res, col
end

-- Nominal configuration: flows run forwards.
local _, col = validate("vessels", Vessels, { 2.0, 1.0, 0.5 })
local n = #col[1]
for i = 4, 6 do T.check(col[i][n] > 0, names[i] .. " runs forwards") end
for i = 1, 3 do
  T.near(col[i][n], 3.5 / 3, 1e-2, names[i] .. " near the common level at 300 s")
end

-- Reversed: t2 is the highest tank, so p1 and p2 run backwards.
local Reversed = Vessels { t1 = { level = 1.0 }, t2 = { level = 2.0 }, t3 = { level = 0.5 } }
local _, rcol = validate("reversed", Reversed, { 1.0, 2.0, 0.5 })
T.check(rcol[4][2] < 0 and rcol[4][#rcol[4]] < 0, "reversed: p1.m_flow < 0 (into t1)")
T.check(rcol[5][2] < 0 and rcol[5][#rcol[5]] < 0, "reversed: p2.m_flow < 0 (out of t2)")
T.check(rcol[6][#rcol[6]] > 0, "reversed: p3.m_flow > 0 (into t3)")

-- Convergence: run on until the flows have died out.
local res = lied.simulate(Vessels, { stop = 1500, interval = 10 }):run()
for _, nm in ipairs { "t1.level", "t2.level", "t3.level" } do
  local c = T.column(res, nm)
  T.near(c[#c], 3.5 / 3, 1e-6, nm .. " converges to 3.5/3 m")
end

-- The command line reports the single factorisation of a whole run.
local code, _, err = T.sh(T.lied .. " run examples/vessels.lua --stats --out none")
T.eq(code, 0, "lied run --stats exit code")
T.check(err:find("factorisations 1,", 1, true) ~= nil, "--stats prints factorisations 1: " .. err)

T.done()
