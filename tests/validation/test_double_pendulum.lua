-- Double pendulum against its hand-derived ODE (Lagrange, in absolute link
-- angles), both integrated with RK4 at dt = 1e-3 over 0..5 s.
local lied = require "lied"
local T = require "tests.testing"
local C = require "tests.models.chain"

local DoublePendulum = dofile("examples/double_pendulum.lua")

-- Links of length l1, l2 at absolute angles t1, t2 (from the x axis), bodies
-- (m1, I1), (m2, I2) at the link ends. With D = t1 - t2:
--   T = 1/2 (m1 l1^2 + I1 + m2 l1^2) t1'^2 + 1/2 (m2 l2^2 + I2) t2'^2
--       + m2 l1 l2 cos(D) t1' t2'
--   V = (m1 + m2) g l1 sin(t1) + m2 g l2 sin(t2)
-- Lagrange:
--   M11 t1'' + M12 t2'' = -m2 l1 l2 sin(D) t2'^2 - (m1 + m2) g l1 cos(t1)
--   M12 t1'' + M22 t2'' =  m2 l1 l2 sin(D) t1'^2 - m2 g l2 cos(t2)
local l1, l2, m1, m2, I1, I2, g = 1.0, 0.8, 1.0, 0.5, 0.02, 0.01, 9.81
local function f(y)
  local t1, t2, w1, w2 = y[1], y[2], y[3], y[4]
  local D = t1 - t2
  local M11 = m1 * l1 * l1 + I1 + m2 * l1 * l1
  local M12 = m2 * l1 * l2 * math.cos(D)
  local M22 = m2 * l2 * l2 + I2
  local r1 = -m2 * l1 * l2 * math.sin(D) * w2 * w2 - (m1 + m2) * g * l1 * math.cos(t1)
  local r2 = m2 * l1 * l2 * math.sin(D) * w1 * w1 - m2 * g * l2 * math.cos(t2)
  local det = M11 * M22 - M12 * M12
  return { w1, w2, (r1 * M22 - M12 * r2) / det, (M11 * r2 - M12 * r1) / det }
end
local function rk4(y, h) return C.rk4(function(_, x) return f(x) end, 0, y, h) end

local h, stop, every = 1e-3, 5, 10
local names = { "revolute1.phi", "revolute2.phi", "revolute1.w", "revolute2.w" }
local res = lied.simulate(DoublePendulum, { solver = "rk4", dt = h, stop = stop,
  interval = h * every, vars = table.concat(names, ",") .. ",body2.frame_a.x,body2.frame_a.y" }):run()
local col = {}
for _, n in ipairs(names) do col[n] = T.column(res, n) end
local bx, by = T.column(res, "body2.frame_a.x"), T.column(res, "body2.frame_a.y")
local time = T.column(res, "time")

-- start: joint angles -> absolute angles
local p1, p2 = -math.pi / 2 + 0.7, 0.5
local y = { p1, p1 + p2, 0, 1.0 }
local maxerr, maxpos = { 0, 0, 0, 0 }, 0
for r = 1, #time do
  if r > 1 then for _ = 1, every do y = rk4(y, h) end end
  local ref = { y[1], y[2] - y[1], y[3], y[4] - y[3] } -- back to joint coordinates
  for i = 1, 4 do maxerr[i] = math.max(maxerr[i], math.abs(col[names[i]][r] - ref[i])) end
  local x2 = l1 * math.cos(y[1]) + l2 * math.cos(y[2])
  local y2 = l1 * math.sin(y[1]) + l2 * math.sin(y[2])
  maxpos = math.max(maxpos, math.abs(bx[r] - x2), math.abs(by[r] - y2))
end
for i = 1, 4 do
  T.check(maxerr[i] < 1e-6, string.format("%s: max deviation from the hand ODE %.3g", names[i], maxerr[i]))
  io.stdout:write(string.format("%-14s max |lied - hand ODE| = %.3g\n", names[i], maxerr[i]))
end
T.check(maxpos < 1e-6, string.format("body2 position: max deviation %.3g", maxpos))
local info = lied.build(DoublePendulum):info()
T.eq(info.sections, 1, "one linear section")
T.eq(info.max_section, 2, "of size 2")
T.done()
