-- Validation: a two-mass, two-spring chain against its analytic (modal)
-- solution; the observed order of every fixed-step method when halving dt.
local lied = require "lied"
local T = require "tests.testing"
local C = require "tests.models.chain"

-- ground -k- m -k- m with k = m = 1: K = [[2, -1], [-1, 1]],
-- eigenvalues (3 -+ sqrt 5)/2, eigenvectors (1, 2 - lambda).
local x0 = { 0.3, -0.2 }
local exact = C.two_mass_exact(x0)

-- relative start offsets: s1 = x1, s2 = x2 - x1
local model = C.chain(2, { 1, 1 }, { 1, 1 }, { x0[1], x0[2] - x0[1] })
local built = lied.build(model)
local stop = 10
local e1, e2 = exact(stop)

local function err_at_stop(solver, h)
  local res = built:run { stop = stop, dt = h, interval = stop, solver = solver,
                          vars = "j1.flange_b.s,j2.flange_b.s" }
  local p1, p2 = T.column(res, "j1.flange_b.s"), T.column(res, "j2.flange_b.s")
  return math.max(math.abs(p1[#p1] - e1), math.abs(p2[#p2] - e2))
end

for _, case in ipairs {
  { "euler", 1, 1e-3 }, { "heun", 2, 1e-2 }, { "rk3", 3, 2e-2 }, { "rk4", 4, 4e-2 },
} do
  local solver, order, h = case[1], case[2], case[3]
  local ea, eb = err_at_stop(solver, h), err_at_stop(solver, h / 2)
  local observed = math.log(ea / eb, 2)
  T.check(math.abs(observed - order) < 0.2,
    string.format("%s: observed order %.3f (errors %.3g, %.3g), nominal %d", solver, observed, ea, eb, order))
  if solver == "rk4" then
    T.check(ea / eb > 14 and ea / eb < 18, string.format("rk4: halving dt divides the error by %.2f", ea / eb))
    T.check(eb < 1e-6, string.format("rk4 at dt = %g: error %.3g", h / 2, eb))
  end
end

-- a bad solver name is an error that lists the available ones
T.raises(function() built:run { stop = 1, solver = "rk7" } end, { "unknown solver 'rk7'", "rk4" })
T.done()
