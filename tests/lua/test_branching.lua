-- Branching: two joints hang off one mass; their forces are summed by the
-- framework (a sum node) and the whole tree is one 3x3 linear section.
local lied = require "lied"
local tl = require "lied.testlib"
local T = require "tests.testing"
local C = require "tests.models.chain"

local k1, k2, k3, m1, m2, m3 = 20, 7, 11, 2, 0.5, 1.5
local Tree = lied.model "Tree" {
  g = tl.Ground {},
  j1 = tl.Slider { k = k1, s = 0.1 },
  b1 = tl.Mass { m = m1 },
  j2 = tl.Slider { k = k2, s = -0.3 },
  b2 = tl.Mass { m = m2 },
  j3 = tl.Slider { k = k3, s = 0.25 },
  b3 = tl.Mass { m = m3 },
  connect = {
    { "g.flange_b", "j1.flange_a" }, { "j1.flange_b", "b1.flange_a" },
    { "b1.flange_b", "j2.flange_a" }, { "j2.flange_b", "b2.flange_a" },
    { "b1.flange_b", "j3.flange_a" }, { "j3.flange_b", "b3.flange_a" },
  },
}
local built = lied.build(Tree)
local info = built:info()
T.eq(info.sections, 1, "one section")
T.eq(info.max_section, 3, "3x3 section")
T.eq(info.components, 7, "components (the sum node is not one)")

-- hand ODE in absolute positions x1, x2, x3
local function f(t, y)
  local x1, x2, x3, v1, v2, v3 = table.unpack(y)
  return { v1, v2, v3,
    (-k1 * x1 + k2 * (x2 - x1) + k3 * (x3 - x1)) / m1,
    -k2 * (x2 - x1) / m2,
    -k3 * (x3 - x1) / m3 }
end
local y = { 0.1, -0.2, 0.35, 0, 0, 0 }
local h = 0.005
local res = built:run { stop = 3, dt = h, interval = 0.5,
                        vars = "j1.flange_b.s,j2.flange_b.s,j3.flange_b.s,b1.flange_a.f" }
local cols = { T.column(res, "j1.flange_b.s"), T.column(res, "j2.flange_b.s"), T.column(res, "j3.flange_b.s") }
local t, maxerr = 0, 0
for r = 1, #cols[1] do
  for i = 1, 3 do maxerr = math.max(maxerr, math.abs(cols[i][r] - y[i])) end
  for _ = 1, 100 do y = C.rk4(f, t, y, h); t = t + h end
end
T.check(maxerr < 1e-11, string.format("tree against hand ODE: %.3g", maxerr))

-- the force into b1 is the sum of what j2 and j3 need plus b1's own inertia
local d = built:derivatives()
T.near(d["j2.v"] + d["j1.v"], (-k2 * (-0.3)) / m2, 1e-12, "initial acceleration of b2")
T.near(d["j1.v"], (-k1 * 0.1 + k2 * (-0.3) + k3 * 0.25) / m1, 1e-12, "initial acceleration of b1")
local f2 = built:value("j2.flange_a.f")
local fsum = built:value("b1.flange_b.f")
local f3 = built:value("j3.flange_a.f")
T.near(fsum, f2 + f3, 1e-12, "b1 reads the sum of j2's and j3's forces")
T.check(math.abs(f2) > 0 and math.abs(f3) > 0, "both contributions are nonzero")
-- A branch of 200 contributions (the sum node's inputs are all known to the
-- scheduler; up to this fix only the first 64 were, and the run diverged to
-- -4.7e30): a slider k = 10 moving a mass of 1 with 200 masses of 0.02 hung
-- on its far flange, M = 5: s = 0.1 cos(sqrt(k / M) t).
local n = 200
local parts = { g = tl.Ground {}, j = tl.Slider { k = 10, s = 0.1 }, b0 = tl.Mass { m = 1 },
  hang = lied.array(tl.Mass { m = 4 / n }, n),
  connect = { { "g.flange_b", "j.flange_a" }, { "j.flange_b", "b0.flange_a" } } }
for i = 1, n do parts.connect[#parts.connect + 1] = { "b0.flange_b", "hang[" .. i .. "].flange_a" } end
local fan = lied.build(lied.model "Fan" (parts))
local res = fan:run { stop = 1, dt = 0.001, vars = "j.flange_b.s" }
local col = T.column(res, "j.flange_b.s")
T.near(col[#col], 0.1 * math.cos(math.sqrt(2)), 1e-12, "200 contributions at one branch")

T.done()
