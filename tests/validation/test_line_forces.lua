-- A free planar body (x, y, phi through two prismatic joints and a revolute)
-- held by a Spring and a Damper at its centre and a SpringDamper at an
-- offset point (FixedTranslation): line forces and their moments against a
-- hand-written Newton-Euler ODE.
local lied = require "lied"
local mech = require "lied.mechanics"
local T = require "tests.testing"

local m, I, g = 0.8, 0.05, 9.81
local r = { 0.3, -0.1 }                 -- attachment point in the body frame
local A, B = { 0, 1 }, { 1, 0 }          -- anchors
local c1, L1 = 20, 0.5                   -- Spring A - centre
local d2 = 0.5                           -- Damper B - centre
local c3, d3, L3 = 50, 0.8, 0.3          -- SpringDamper A - point

local Model = lied.model "FreeBody" {
  ground = mech.Fixed {},
  px = mech.Prismatic { e = { 1, 0 }, s = 0.2, v = 0.5 },
  py = mech.Prismatic { e = { 0, 1 }, s = -0.4, v = 0 },
  rot = mech.Revolute { phi = 0.3, w = -1 },
  body = mech.Body { m = m, I = I },
  arm = mech.FixedTranslation { r = r },
  anchorA = mech.Fixed { x = A[1], y = A[2] },
  anchorB = mech.Fixed { x = B[1], y = B[2] },
  spring = mech.Spring { c = c1, s_unstretched = L1 },
  damper = mech.Damper { d = d2 },
  sd = mech.SpringDamper { c = c3, d = d3, s_unstretched = L3 },
  connect = {
    { "ground.frame_b", "px.frame_a" }, { "px.frame_b", "py.frame_a" },
    { "py.frame_b", "rot.frame_a" }, { "rot.frame_b", "body.frame_a" },
    { "rot.frame_b", "arm.frame_a" },
    { "anchorA.frame_b", "spring.frame_a" }, { "rot.frame_b", "spring.frame_b" },
    { "anchorB.frame_b", "damper.frame_a" }, { "rot.frame_b", "damper.frame_b" },
    { "anchorA.frame_b", "sd.frame_a" }, { "arm.frame_b", "sd.frame_b" },
  },
}

-- Line element from a fixed anchor P to a body point Q (velocity V): the
-- tension f = c (L - L0) + d L' acts on the body as -f u, u = (Q - P) / L.
local function line(P, Q, V, c, d, L0)
  local dx, dy = Q[1] - P[1], Q[2] - P[2]
  local L = math.sqrt(dx * dx + dy * dy)
  local ux, uy = dx / L, dy / L
  local f = c * (L - L0) + d * (V[1] * ux + V[2] * uy)
  return -f * ux, -f * uy, L, f
end
local function f(t, y)
  local x, yy, th, vx, vy, w = table.unpack(y)
  local ct, st = math.cos(th), math.sin(th)
  local rx, ry = ct * r[1] - st * r[2], st * r[1] + ct * r[2]
  local X, V = { x, yy }, { vx, vy }
  local Q, VQ = { x + rx, yy + ry }, { vx - w * ry, vy + w * rx }
  local f1x, f1y = line(A, X, V, c1, 0, L1)
  local f2x, f2y = line(B, X, V, 0, d2, 0)
  local f3x, f3y = line(A, Q, VQ, c3, d3, L3)
  return { vx, vy, w, (f1x + f2x + f3x) / m, (f1y + f2y + f3y) / m - g,
           (rx * f3y - ry * f3x) / I }
end
local function rk4(t, y, h)
  local n = #y
  local function add(u, k, c) local z = {} for i = 1, n do z[i] = u[i] + c * k[i] end return z end
  local k1 = f(t, y)
  local k2 = f(t + h / 2, add(y, k1, h / 2))
  local k3 = f(t + h / 2, add(y, k2, h / 2))
  local k4 = f(t + h, add(y, k3, h))
  local z = {}
  for i = 1, n do z[i] = y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) end
  return z
end

local h, stop, every = 1e-3, 3, 10
local names = { "px.s", "py.s", "rot.phi", "px.v", "py.v", "rot.w", "sd.s", "sd.f" }
local res = lied.simulate(Model, { solver = "rk4", dt = h, stop = stop, interval = h * every,
                                   vars = table.concat(names, ",") }):run()
local col = {}
for _, n in ipairs(names) do col[n] = T.column(res, n) end
local y, t, maxerr = { 0.2, -0.4, 0.3, 0.5, 0, -1 }, 0, 0
for row = 1, #col["px.s"] do
  if row > 1 then for _ = 1, every do y = rk4(t, y, h); t = t + h end end
  local ct, st = math.cos(y[3]), math.sin(y[3])
  local Q = { y[1] + ct * r[1] - st * r[2], y[2] + st * r[1] + ct * r[2] }
  local VQ = { y[4] - y[6] * (Q[2] - y[2]), y[5] + y[6] * (Q[1] - y[1]) }
  local _, _, L, fl = line(A, Q, VQ, c3, d3, L3)
  local ref = { y[1], y[2], y[3], y[4], y[5], y[6], L, fl }
  for i = 1, #names do maxerr = math.max(maxerr, math.abs(col[names[i]][row] - ref[i])) end
end
T.check(maxerr < 1e-8, string.format("max deviation from the hand ODE %.3g", maxerr))
io.stdout:write(string.format("free body with line forces: max |lied - hand ODE| = %.3g\n", maxerr))
local info = lied.build(Model):info()
T.eq(info.max_section, 3, "one 3x3 section (x, y, phi)")
T.done()
