-- A bead sliding on a driven, rotating arm (centripetal and Coriolis terms
-- of Prismatic on a turning frame), on a displaced and rotated ground, with a
-- non-unit slide direction, a constant slide force and a constant plus
-- sinusoidal joint torque; against a hand-derived ODE (Lagrange).
local lied = require "lied"
local mech = require "lied.mechanics"
local T = require "tests.testing"

local x0, y0, phi0 = 0.2, -0.1, 0.3   -- ground frame
local Ia, mb, Ib = 0.3, 0.4, 0.01     -- arm inertia, bead
local F, tau, A, om = 0.7, 0.25, 0.5, 3 -- slide force, torque tau + A sin(om t)
local g = 9.81
local alpha = math.atan(4, 3)         -- slide direction e = (3, 4) in the arm frame

local Model = lied.model "RotatingSlider" {
  ground = mech.Fixed { x = x0, y = y0, phi = phi0 },
  joint = mech.Revolute { phi = 0.1, w = 2, tau = tau },
  drive = mech.Sine { A = A, w = om },
  arm = mech.Body { m = 1, I = Ia },
  slide = mech.Prismatic { e = { 3, 4 }, s = 0.5, v = 0.1, F = F },
  bead = mech.Body { m = mb, I = Ib },
  connect = {
    { "ground.frame_b", "joint.frame_a" }, { "drive.y", "joint.u" },
    { "joint.frame_b", "arm.frame_a" }, { "joint.frame_b", "slide.frame_a" },
    { "slide.frame_b", "bead.frame_a" },
  },
}

-- theta = phi0 + joint.phi, beta = theta + alpha, bead at ground + s u(beta):
--   T = 1/2 (Ia + Ib) theta'^2 + 1/2 mb (s'^2 + s^2 theta'^2),  V = mb g s sin(beta)
--   mb s''                      = mb s theta'^2 - mb g sin(beta) + F
--   (Ia + Ib + mb s^2) theta''  = -2 mb s s' theta' - mb g s cos(beta) + tau + A sin(om t)
local function f(t, y)
  local th, s, w, v = y[1], y[2], y[3], y[4]
  local beta = th + alpha
  local dv = s * w * w - g * math.sin(beta) + F / mb
  local dw = (-2 * mb * s * v * w - mb * g * s * math.cos(beta) + tau + A * math.sin(om * t))
    / (Ia + Ib + mb * s * s)
  return { w, v, dw, dv }
end
local function rk4(t, y, h)
  local function add(u, k, c) local r = {} for i = 1, 4 do r[i] = u[i] + c * k[i] end return r end
  local k1 = f(t, y)
  local k2 = f(t + h / 2, add(y, k1, h / 2))
  local k3 = f(t + h / 2, add(y, k2, h / 2))
  local k4 = f(t + h, add(y, k3, h))
  local r = {}
  for i = 1, 4 do r[i] = y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) end
  return r
end

local h, stop, every = 1e-3, 3, 10
local names = { "joint.phi", "slide.s", "joint.w", "slide.v",
                "bead.frame_a.x", "bead.frame_a.y", "bead.frame_a.vx", "bead.frame_a.vy" }
local res = lied.simulate(Model, { solver = "rk4", dt = h, stop = stop, interval = h * every,
                                   vars = table.concat(names, ",") }):run()
local col = {}
for _, n in ipairs(names) do col[n] = T.column(res, n) end
local y, t = { phi0 + 0.1, 0.5, 2, 0.1 }, 0
local maxerr = 0
for r = 1, #col["slide.s"] do
  if r > 1 then for _ = 1, every do y = rk4(t, y, h); t = t + h end end
  local th, s, w, v = y[1], y[2], y[3], y[4]
  local beta = th + alpha
  local ref = { th - phi0, s, w, v, x0 + s * math.cos(beta), y0 + s * math.sin(beta),
    v * math.cos(beta) - s * w * math.sin(beta), v * math.sin(beta) + s * w * math.cos(beta) }
  for i = 1, #names do
    local e = math.abs(col[names[i]][r] - ref[i])
    if e > maxerr then maxerr = e end
  end
end
T.check(maxerr < 1e-8, string.format("max deviation from the hand ODE %.3g", maxerr))
io.stdout:write(string.format("rotating slider: max |lied - hand ODE| = %.3g\n", maxerr))
T.done()
