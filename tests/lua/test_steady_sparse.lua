-- Steady states over the implicit solvers' sparse formulation (docs/analysis.md, "Large
-- models: the sparse formulation"): a model with a sparse section and more than 128 states
-- takes its pseudo-time steps on the states, the section's unknowns and the explicit cuts;
-- the same model built with its sections solved densely (sparse = false) takes them on the
-- states. Both reach the same steady state, which is one (every derivative 0), and the
-- sparse formulation's Jacobians need fewer evaluations. The expansion volume's energy
-- vol.U is held: nothing flows through the volume at the steady state, so its energy is
-- a continuum of equilibria that no linear invariant pins down (docs/analysis.md,
-- "Limits"; free, the two formulations land 7e-4 apart on it, each with every derivative
-- below 3e-10).
local lied = require "lied"
local T = require "tests.testing"

local District = dofile("examples/district_heating.lua")
local n = 40 -- 164 states: above the dense LU's 128
local sparse = lied.build(District, { n = n })
local dense = lied.build(District, { n = n }, nil, { sparse = false })
T.eq(sparse:info().sparse_sections, 1, "a sparse section")
T.eq(dense:info().sparse_sections, 0, "sparse = false: none")
local a = sparse:steady { maxit = 2000, fixed = { "vol.U" } }
local b = dense:steady { maxit = 2000, fixed = { "vol.U" } }
T.eq(#a.names, 4 * n + 4, "states")
local worst, at = 0, ""
for i, nm in ipairs(a.names) do
  T.eq(nm, b.names[i], "the same states")
  local d = math.abs(a.values[i] - b.values[i]) / math.max(math.abs(b.values[i]), 1)
  if not (d <= worst) then worst, at = d, nm end
end
-- measured 7.7e-9 (boiler.h): the two Newton matrices' rounding, on a network's pressures
T.check(worst <= 1e-7, string.format("sparse and dense formulations agree to %.3g (worst %s)", worst, at))
T.check(a.residual <= 1e-6 and b.residual <= 1e-6,
  string.format("both are steady states: largest |der| %.3g and %.3g", a.residual, b.residual))
-- the dense one's Jacobians take an evaluation per state (a network's df/dx is dense)
T.check(a.rhs / a.steps < b.rhs / b.steps / 2,
  string.format("evaluations per pseudo-time step: %.1f sparse, %.1f dense", a.rhs / a.steps,
    b.rhs / b.steps))
-- the sparse LU pivots afresh only when the pseudo-time step has moved tenfold since it last
-- did (measured: 18 of 47 factorisations), the dense one never counts (it pivots each time)
T.check(a.pivotings >= 1 and a.pivotings < (a.steps + a.rejected) / 2,
  string.format("fresh pivotings %d of %d factorisations", a.pivotings, a.steps + a.rejected))
T.eq(b.pivotings, 0, "the dense formulation counts no sparse pivoting")
-- a rejected step is retried from the same point with the Jacobian evaluated there: one
-- Jacobian per point reached (the last needs none when the first step converges there)
for _, r in ipairs { a, b } do
  T.check(r.rejected >= 1 and r.jacobians <= r.steps + 1 and r.jacobians >= r.steps,
    string.format("%d Jacobians for %d steps and %d retries", r.jacobians, r.steps, r.rejected))
end
print(string.format("steps %d and %d, evaluations %d and %d, worst difference %.3g (%s)", a.steps,
  b.steps, a.rhs, b.rhs, worst, at))
T.done()
