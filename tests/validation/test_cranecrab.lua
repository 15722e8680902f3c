-- Crane crab against a cart-pendulum ODE derived by hand (Lagrange), both
-- integrated with RK4 at dt = 1e-3 over 0..10 s; and its energy balance.
local lied = require "lied"
local T = require "tests.testing"
local C = require "tests.models.chain"

local CraneCrab = dofile("examples/cranecrab.lua")

-- Hand-derived model. Coordinates: cart position s, joint angle phi (rod
-- r = (a, b) in the joint frame). Body 2 sits at (s + X, Y) with
-- X = a cos(phi) - b sin(phi), Y = a sin(phi) + b cos(phi).
--   T = 1/2 (m1 + m2) s'^2 - m2 Y s' w + 1/2 (m2 (a^2 + b^2) + I2) w^2
--   V = m2 g Y
-- Lagrange:
--   (m1 + m2) s'' - m2 Y w'          = m2 X w^2
--   -m2 Y s''     + (m2 L^2 + I2) w' = -m2 g X
local m1, m2, I2, a, b, g = 1.0, 0.5, 0.05, 0.5, 1.5, 9.81
local J = m2 * (a * a + b * b) + I2
local function f(y)
  local s, phi, v, w = y[1], y[2], y[3], y[4]
  local c, sn = math.cos(phi), math.sin(phi)
  local X, Y = a * c - b * sn, a * sn + b * c
  local M11, M12, M22 = m1 + m2, -m2 * Y, J
  local r1, r2 = m2 * X * w * w, -m2 * g * X
  local det = M11 * M22 - M12 * M12
  return { v, w, (r1 * M22 - M12 * r2) / det, (M11 * r2 - M12 * r1) / det }
end
local function rk4(y, h) return C.rk4(function(_, x) return f(x) end, 0, y, h) end

local h, stop, every = 1e-3, 10, 10 -- output every 10 steps
local names = { "prismatic1.s", "revolute2.phi", "prismatic1.v", "revolute2.w" }
local energy_vars = { "body1.frame_a.vx", "body1.frame_a.vy", "body1.frame_a.y",
  "body2.frame_a.vx", "body2.frame_a.vy", "body2.frame_a.w", "body2.frame_a.y",
  "body1.frame_a.w" }
local all = {}
for _, n in ipairs(names) do all[#all + 1] = n end
for _, n in ipairs(energy_vars) do all[#all + 1] = n end
local sim = lied.simulate(CraneCrab, { solver = "rk4", dt = h, stop = stop,
                                      interval = h * every, vars = table.concat(all, ",") })
local res = sim:run()
local col = {}
for _, n in ipairs(all) do col[n] = T.column(res, n) end
local time = T.column(res, "time")
T.eq(#time, stop / (h * every) + 1, "output rows")

local y = { 0, 0, 0, 0 }
local maxerr = { 0, 0, 0, 0 }
for r = 1, #time do
  if r > 1 then for _ = 1, every do y = rk4(y, h) end end
  for i = 1, 4 do
    local e = math.abs(col[names[i]][r] - y[i])
    if e > maxerr[i] then maxerr[i] = e end
  end
end
for i = 1, 4 do
  T.check(maxerr[i] < 1e-6, string.format("%s: max deviation from the hand ODE %.3g", names[i], maxerr[i]))
  io.stdout:write(string.format("%-14s max |lied - hand ODE| = %.3g\n", names[i], maxerr[i]))
end
-- the pendulum must really swing through (not a trivial solution)
local minphi, maxs = 0, 0
for r = 1, #time do
  minphi = math.min(minphi, col["revolute2.phi"][r])
  maxs = math.max(maxs, math.abs(col["prismatic1.s"][r]))
end
T.check(minphi < -math.pi, "the pendulum swings through the bottom")
T.check(maxs > 0.3, "the cart moves")

-- Energy from recorded body motion: kinetic + potential, relative drift.
local m1b, I1 = 1.0, 0.1
local function energy(r)
  local e = 0.5 * m1b * (col["body1.frame_a.vx"][r] ^ 2 + col["body1.frame_a.vy"][r] ^ 2)
    + 0.5 * I1 * col["body1.frame_a.w"][r] ^ 2 + m1b * g * col["body1.frame_a.y"][r]
  e = e + 0.5 * m2 * (col["body2.frame_a.vx"][r] ^ 2 + col["body2.frame_a.vy"][r] ^ 2)
    + 0.5 * I2 * col["body2.frame_a.w"][r] ^ 2 + m2 * g * col["body2.frame_a.y"][r]
  return e
end
local E0 = energy(1)
local drift = 0
for r = 1, #time do drift = math.max(drift, math.abs(energy(r) - E0) / math.abs(E0)) end
T.near(E0, m2 * g * b, 1e-12, "initial energy m2 g b")
T.check(drift < 1e-6, string.format("relative energy drift over 10 s: %.3g", drift))
io.stdout:write(string.format("energy E0 = %.6f J, max relative drift %.3g\n", E0, drift))
T.done()
