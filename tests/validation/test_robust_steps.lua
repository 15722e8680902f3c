-- Solver robustness (docs/solvers.md): the rigid drop (examples/drop.lua
-- with T_D = 0: a 0.1 kg body on a 1e7 N/m floor) and probing far from
-- equilibrium.
local lied = require "lied"
local T = require "tests.testing"

local Drop = dofile("examples/drop.lua")

-- Probing scales its perturbations to the solution when the residual dwarfs
-- the matrix: started s0 below the floor, der(v) = c (-s0) / m - g exactly
-- (the tearing variable is the body's acceleration).
for _, s0 in ipairs { -1e-3, -1, -1e3, -1e7, -1e10 } do
  local b = lied.build(Drop, { T_D = 0, ["slider.s"] = s0 })
  b:derivatives(0)
  local exact = 1e7 * -s0 / 0.1 - 9.81
  local got = b:value("slider.der(v)")
  T.check(math.abs(got - exact) <= 1e-8 * math.abs(exact),
    string.format("der(v) %.17g vs %.17g at s0 = %g", got, exact, s0))
end

-- dopri45 without --hmax: trial steps that land deep in the floor (a
-- singular section there, or a value that is not finite) are rejected and
-- retried smaller; the run converges as the tolerance falls.
local ref
for _, tol in ipairs { 1e-10, 1e-9, 1e-8, 1e-7, 1e-6 } do
  local ok, res = pcall(function()
    return lied.build(Drop, { T_D = 0 }):run { solver = "dopri45", tol = tol, vars = "slider.s" }
  end)
  T.check(ok, "rigid drop, dopri45 tol " .. tol .. (ok and "" or ": " .. tostring(res)))
  if ok then
    local s = T.column(res, "slider.s")
    ref = ref or s[#s]
    T.check(math.abs(s[#s] - ref) < 1e3 * tol,
      string.format("tol %g: s(5) = %.12g (tol 1e-10: %.12g)", tol, s[#s], ref))
  end
end
T.done()
