-- tests/models/chain.lua: builders of 1-D mass-spring test models and a
-- hand-written reference ODE (plain Lua, no library code) to compare with.
local lied = require "lied"
local tl = require "lied.testlib"

local M = {}

-- A chain ground - j1 - b1 - j2 - b2 ... - jn - bn, spring k[i] in joint i,
-- mass m[i], start offsets s0[i] (relative), zero velocities.
function M.chain(n, k, m, s0, d)
  local def = { g = tl.Ground {}, connect = {} }
  local prev = "g.flange_b"
  for i = 1, n do
    def["j" .. i] = tl.Slider { k = k[i], s = s0[i], d = d and d[i] or 0 }
    def["b" .. i] = tl.Mass { m = m[i] }
    def.connect[#def.connect + 1] = { prev, "j" .. i .. ".flange_a" }
    def.connect[#def.connect + 1] = { "j" .. i .. ".flange_b", "b" .. i .. ".flange_a" }
    prev = "b" .. i .. ".flange_b"
  end
  return lied.model("Chain" .. n)(def)
end

-- Classic RK4 step for x' = f(t, x) on a Lua array.
function M.rk4(f, t, x, h)
  local n = #x
  local function axpy(a, y)
    local r = {}
    for i = 1, n do r[i] = x[i] + a * y[i] end
    return r
  end
  local k1 = f(t, x)
  local k2 = f(t + h / 2, axpy(h / 2, k1))
  local k3 = f(t + h / 2, axpy(h / 2, k2))
  local k4 = f(t + h, axpy(h, k3))
  local r = {}
  for i = 1, n do r[i] = x[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) end
  return r
end

-- Hand-written ODE of the chain in absolute positions: state (x1..xn, v1..vn).
function M.chain_rhs(n, k, m, d)
  return function(t, y)
    local dy = {}
    for i = 1, n do
      local xi, vi = y[i], y[n + i]
      local xl = i > 1 and y[i - 1] or 0
      local vl = i > 1 and y[n + i - 1] or 0
      local f = -k[i] * (xi - xl) - (d and d[i] or 0) * (vi - vl)
      if i < n then
        f = f + k[i + 1] * (y[i + 1] - xi) + (d and d[i + 1] or 0) * (y[n + i + 1] - vi)
      end
      dy[i] = vi
      dy[n + i] = f / m[i]
    end
    return dy
  end
end

-- The analytic solution of ground -k- m -k- m with k = m = 1 from rest at
-- absolute positions x0 = {x1, x2}: K = [[2, -1], [-1, 1]], eigenvalues
-- (3 -+ sqrt 5)/2, eigenvectors (1, 2 - lambda). Returns exact(t) -> x1, x2.
function M.two_mass_exact(x0)
  local modes = {}
  for i, sgn in ipairs { -1, 1 } do
    local lam = (3 + sgn * math.sqrt(5)) / 2
    modes[i] = { w = math.sqrt(lam), u = { 1, 2 - lam } }
  end
  -- solve U c = x0 (2x2, by hand)
  local a, b, c, d = modes[1].u[1], modes[2].u[1], modes[1].u[2], modes[2].u[2]
  local det = a * d - b * c
  local c1 = (d * x0[1] - b * x0[2]) / det
  local c2 = (-c * x0[1] + a * x0[2]) / det
  return function(t)
    local k1, k2 = c1 * math.cos(modes[1].w * t), c2 * math.cos(modes[2].w * t)
    return k1 * modes[1].u[1] + k2 * modes[2].u[1], k1 * modes[1].u[2] + k2 * modes[2].u[2]
  end
end

return M
