-- Validation of the adaptive solvers on the two-mass chain with its analytic
-- (modal) solution (as in test_rk_analytic.lua): the global error at the end
-- and at every output point stays below 10 x tol for tol 1e-3 .. 1e-8;
-- output points come from dense output and do not shorten steps; output
-- after every step; largest step; first step.
local lied = require "lied"
local T = require "tests.testing"
local C = require "tests.models.chain"

local x0 = { 0.3, -0.2 }
local exact = C.two_mass_exact(x0)

local model = C.chain(2, { 1, 1 }, { 1, 1 }, { x0[1], x0[2] - x0[1] })
local built = lied.build(model)
local stop = 10
local vars = "j1.flange_b.s,j2.flange_b.s"

-- errors at the end and the largest at the output points
local function errors(res)
  local p1, p2, tt = T.column(res, "j1.flange_b.s"), T.column(res, "j2.flange_b.s"), T.column(res, "time")
  local worst = 0
  for r = 1, #tt do
    local e1, e2 = exact(tt[r])
    worst = math.max(worst, math.abs(p1[r] - e1), math.abs(p2[r] - e2))
  end
  local e1, e2 = exact(stop)
  return math.max(math.abs(p1[#p1] - e1), math.abs(p2[#p2] - e2)), worst
end

local have_cvode = false
for _, s in ipairs(lied.core.solvers()) do have_cvode = have_cvode or s.name == "cvode" end

for _, solver in ipairs { "dopri45", "esdirk23", "cvode" } do
  if solver ~= "cvode" or have_cvode then
    for _, tol in ipairs { 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8 } do
      local res, st = built:run { stop = stop, tol = tol, interval = 0.37, solver = solver, vars = vars }
      local eend, eout = errors(res)
      io.stdout:write(string.format("%-8s tol %-6g: error at 10 s %.3g (%.2f x tol), at outputs %.3g; " ..
        "steps %d, rejected %d, evaluations %d\n", solver, tol, eend, eend / tol, eout, st.steps, st.rejected, st.rhs))
      if solver == "cvode" then -- the peer: its bound as docs/solvers.md states it
        T.check(eend < 200 * tol, string.format("cvode tol %g: error at the end %.3g below 200 x tol", tol, eend))
      else
        T.check(eend < 10 * tol, string.format("%s tol %g: error at the end %.3g", solver, tol, eend))
        T.check(eout < 10 * tol, string.format("%s tol %g: error at the output points %.3g", solver, tol, eout))
        T.check(eend > 1e-3 * tol, string.format("%s tol %g: error %.3g not suspiciously small", solver, tol, eend))
      end
      local tt = T.column(res, "time")
      T.eq(#tt, 29, solver .. ": output rows (0, 0.37, ..., 9.99, 10)")
      T.eq(tt[2], 0.37, solver .. ": output point 0.37 exact")
      T.eq(tt[#tt], 10, solver .. ": last output at stop")
    end
  end
end

-- tighter tolerance, more steps
local function steps(solver, tol, extra)
  local o = { stop = stop, tol = tol, solver = solver, vars = vars, interval = stop }
  for k, v in pairs(extra or {}) do o[k] = v end
  local res, st = built:run(o)
  return st, res
end
for _, solver in ipairs { "dopri45", "esdirk23" } do
  local s3, s6 = steps(solver, 1e-3), steps(solver, 1e-6)
  T.check(s6.steps > s3.steps, solver .. ": tighter tolerance takes more steps")
  -- dense output: 1000 output points do not change the steps taken
  local s_dense, r_dense = steps(solver, 1e-6, { interval = 0.01 })
  T.eq(s_dense.steps, s6.steps, solver .. ": steps with 1000 output points")
  T.eq(r_dense:nrows(), 1001, solver .. ": 1001 rows")
  -- every accepted step
  local s_all, r_all = steps(solver, 1e-6, { interval = "step" })
  T.eq(r_all:nrows(), s_all.steps + 1, solver .. ": one row per step")
  local tt = T.column(r_all, "time")
  local increasing = true
  for r = 2, #tt do increasing = increasing and tt[r] > tt[r - 1] end
  T.check(increasing and tt[#tt] == stop, solver .. ": step times increase up to stop")
  -- the first step when given, the largest step
  local _, r_first = steps(solver, 1e-6, { interval = "step", dt = 1e-4 })
  T.eq(T.column(r_first, "time")[2], 1e-4, solver .. ": first step = dt")
  local s_max = steps(solver, 1e-3, { hmax = 0.05 })
  T.check(s_max.steps >= stop / 0.05, string.format("%s: hmax 0.05 gives %d >= 200 steps", solver, s_max.steps))
end

-- esdirk23 statistics: the chain is linear, one Jacobian suffices
local st = steps("esdirk23", 1e-6)
T.check(st.jacobians >= 1 and st.jacobians <= 3, string.format("esdirk23: %d Jacobians", st.jacobians))
T.check(st.lu >= 1 and st.lu < st.steps / 5,
  string.format("esdirk23: %d factorisations for %d steps (reused)", st.lu, st.steps))
T.check(st.newton >= 2 * st.steps, "esdirk23: two implicit stages per step")
T.eq(st.colours, 4, "esdirk23: Jacobian colours of the chain")

-- invalid tolerances are errors
T.raises(function() built:run { solver = "dopri45", tol = -1 } end, "tolerance must be positive")
T.raises(function() built:run { solver = "dopri45", hmax = -1 } end, "largest step must be positive")
T.done()
