-- Validation of the implicit solvers on stiff problems: the communicating
-- vessels with small valve inertances (a fast, strongly damped flow mode)
-- need far fewer derivative evaluations with esdirk23 than with dopri45 at
-- the same tolerance, for the same answer; and the coloured Jacobian of n
-- independent crane crabs costs 4 evaluations whatever n.
local lied = require "lied"
local T = require "tests.testing"

local Vessels = dofile("examples/vessels.lua")
local L = 10 -- inertance of the three valves (the example has 1e3: not stiff)
local built = lied.build(Vessels, { ["p1.L"] = L, ["p2.L"] = L, ["p3.L"] = L })
local levels = { "t1.level", "t2.level", "t3.level" }
local function run(solver, tol)
  local res, st = built:run { solver = solver, tol = tol, stop = 300, interval = 300,
                              vars = table.concat(levels, ",") }
  local x = {}
  for i, n in ipairs(levels) do
    local c = T.column(res, n)
    x[i] = c[#c]
  end
  return x, st
end

local tol = 1e-6
local xe, se = run("dopri45", tol)
local xi, si = run("esdirk23", tol)
io.stdout:write(string.format("vessels (L = %g), tol %g: dopri45 %d steps, %d evaluations; " ..
  "esdirk23 %d steps, %d evaluations (%d for %d Jacobians), %d factorisations, %d Newton iterations: %.1fx fewer\n",
  L, tol, se.steps, se.rhs, si.steps, si.rhs, si.jac_rhs, si.jacobians, si.lu, si.newton, se.rhs / si.rhs))
T.check(se.rhs >= 10 * si.rhs,
  string.format("esdirk23 needs %d evaluations, dopri45 %d: at least 10x fewer", si.rhs, se.rhs))
for i, n in ipairs(levels) do
  T.check(math.abs(xe[i] - xi[i]) < 1e-4, string.format("%s: dopri45 %.9g, esdirk23 %.9g", n, xe[i], xi[i]))
end
-- equal tank areas: the water volume, hence the sum of the levels (3.5 m), is kept
T.check(math.abs(xi[1] + xi[2] + xi[3] - 3.5) < 1e-6, string.format("sum of levels %.12g", xi[1] + xi[2] + xi[3]))
T.check(xi[1] > xi[2] and xi[2] > xi[3] and xi[1] - xi[3] < 0.05, "levels approach each other")
T.check(si.colours == 5 and si.jac_nnz == 18, "vessels: 5 colours, 18 structural nonzeros")

-- n independent crane crabs: 4 colours, 4 evaluations per Jacobian; every
-- crab moves like the single one (identical copies take identical steps)
local Scaling = dofile("examples/scaling.lua")
local n = lied.core.sparse_lu and 1000 or 100 -- dense LU without KLU: fewer states
local crabs = lied.build(Scaling, { n = n })
local info = crabs:info(true)
T.eq(info.jacobian.colours, 4, n .. " crabs: colours")
T.eq(info.jacobian.nnz, 14 * n, n .. " crabs: structural nonzeros")
T.eq(info.jacobian.max_row, 4, n .. " crabs: nonzeros per row")
local last = string.format("crab[%d].revolute2.phi", n)
local res, st = crabs:run { solver = "esdirk23", tol = 1e-5, stop = 2, interval = 2,
                            vars = "crab[1].revolute2.phi," .. last }
T.eq(st.colours, 4, "esdirk23 on n crabs: colours")
T.check(st.jacobians >= 1 and st.jac_rhs == 4 * st.jacobians,
  string.format("%d crabs: %d Jacobians cost %d evaluations (<= 8 each)", n, st.jacobians, st.jac_rhs))
local one = lied.build(dofile("examples/cranecrab.lua"))
local r1 = one:run { solver = "esdirk23", tol = 1e-5, stop = 2, interval = 2, vars = "revolute2.phi" }
local phi1 = T.column(r1, "revolute2.phi")
local a, b = T.column(res, "crab[1].revolute2.phi"), T.column(res, last)
T.check(math.abs(a[#a] - phi1[#phi1]) < 1e-9 and math.abs(b[#b] - phi1[#phi1]) < 1e-9,
  string.format("crab[1] %.12g, crab[%d] %.12g, single crab %.12g", a[#a], n, b[#b], phi1[#phi1]))
T.done()
