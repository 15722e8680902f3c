-- Validation of examples/bouncing_ball.lua (impacts as state events,
-- docs/events.md): the impact times against the closed form. Dropped from
-- h at rest, the ball lands at t1 = sqrt(2 h / g) with speed v1 = g t1;
-- after impact k it leaves at e^k v1 and flies 2 e^k v1 / g. The impacts
-- accumulate at t1 + 2 v1 e / (g (1 - e)) (about 4.06 s).
local lied = require "lied"
local T = require "tests.testing"
local pm = require "lied.mechanics"

local Model = dofile("examples/bouncing_ball.lua")
local g, e, h = 9.81, 0.8, 1
local t1 = math.sqrt(2 * h / g)
local v1 = g * t1
local function impact(k) -- time of impact k (1-based)
  local t = t1
  for j = 1, k - 1 do t = t + 2 * e ^ j * v1 / g end
  return t
end

-- impacts: the times that appear in two rows, with v before and after
local function impacts(res)
  local t, v, y = T.column(res, "time"), T.column(res, "ball.v"), T.column(res, "ball.y")
  local out = {}
  for i = 2, #t do
    if t[i] == t[i - 1] then out[#out + 1] = { t = t[i], vb = v[i - 1], va = v[i], y = y[i] } end
  end
  return out
end

local function check(opts, tol, tag)
  opts.vars = "ball.y,ball.v"
  local res = lied.build(Model):run(opts)
  local im = impacts(res)
  T.eq(#im, 6, tag .. ": six impacts before 3 s")
  local worst = 0
  for k = 1, math.min(5, #im) do
    worst = math.max(worst, math.abs(im[k].t - impact(k)))
    T.near(im[k].va, -e * im[k].vb, 1e-12, tag .. ": v reversed and scaled at impact " .. k)
    T.check(math.abs(im[k].y) < 1e-9, tag .. ": the ball is on the floor at impact " .. k)
  end
  T.check(worst < tol, string.format("%s: first five impact times within %g (worst %.3g)", tag,
    tol, worst))
  local y = T.column(res, "ball.y")
  local low = math.huge
  for i = 1, #y do low = math.min(low, y[i]) end
  T.check(low > -1e-9, tag .. ": the ball never goes through the floor")
end

check({ solver = "dopri45", tol = 1e-12, stop = 3 }, 1e-9, "dopri45 tol 1e-12")
check({ solver = "rk4", dt = 0.01, stop = 3 }, 1e-9, "rk4 dt 0.01") -- free fall: rk4 is exact
check({ solver = "esdirk23", tol = 1e-8, stop = 3 }, 1e-6, "esdirk23 tol 1e-8")

-- Past the Zeno point the rebounds fall below v_rest and the ball rests.
do
  local M = lied.model "Rest" { ball = pm.BouncingBall { y = 1, e = 0.8 } }
  local res = lied.build(M):run { solver = "dopri45", tol = 1e-10, stop = 6, vars = "ball.y,ball.v,ball.resting" }
  local y, r = T.column(res, "ball.y"), T.column(res, "ball.resting")
  T.eq(r[#r], 1, "the ball rests after the accumulation point")
  T.eq(y[#y], 0, "resting on the floor")
  local zeno = t1 + 2 * v1 * e / (g * (1 - e))
  T.near(zeno, 4.0637, 1e-4, "accumulation point (closed form)")
end
T.done()
