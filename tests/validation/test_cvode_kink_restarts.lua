-- cvode through the kinks of a network (examples/district_heating.lua, 30
-- houses, one day, tol 1e-6: about 170 kinks of the thermostats' limits).
-- History: a step that crossed a kink was taken again from its start to end
-- there; the restarted solution lay a rounding apart, and a kink function
-- leaving 0 slowly crossed again 1e-10 s after each such end (millions of
-- steps, the run never finished); then steps ended at kinks predicted from
-- the kink functions and straddling steps were taken again from a restart
-- (4,310 steps, 11 restarts; at 1,000 houses 19,842 steps, 1,919 restarts
-- and 10,988 factorisations). Now a cvode step whose crossings are kinks
-- only stands: BDF's error estimate (corrector minus a predictor
-- extrapolated from before the kink) sees the straddle, and CVODE's error
-- test judges it (docs/events.md, "Kinks"); the Newton matrix is set up by
-- CVODE's own rules (solve/cvode.c). Checked: the run ends in a bounded
-- number of steps and factorisations, evaluates no zero function (kinks
-- only: every step stands across them), restarts CVODE at
-- none of them (the model has no events), and its rooms, plant outlet and
-- pump flow agree with cvode's own run at tol 1e-9 over the day to 1e-4
-- relative (cvode at 1e-6: its global error). Then esdirk23 through a kink
-- at rest (below).
local lied = require "lied"
local T = require "tests.testing"

local have_cvode = pcall(function()
  local S = require "lied.signals"
  lied.build(lied.model "C" { i = S.Integrator {}, c = S.Constant {}, connect = { { "c.y", "i.u" } } })
    :run { solver = "cvode", stop = 1, out = "none" }
end)
if not have_cvode then
  print("cvode not in this build: skipped")
  T.done()
end

local src = os.getenv("LIED_SRC") or "."
local District = dofile(src .. "/examples/district_heating.lua")
local m = lied.build(District, { n = 30 })
local vars = "vol.T,pump.m_flow,house[1].room.T,house[15].room.T,house[30].room.T"
local res, st = m:run { solver = "cvode", tol = 1e-6, stop = 86400, interval = 600, vars = vars }
-- 3,780 steps and 816 factorisations measured (before: 4,310 steps and 11
-- restarts with the kinks predicted)
T.check(st.steps < 6000, string.format("cvode: %d steps for the day (at most 6,000)", st.steps))
T.check(st.lu < 1000, string.format("cvode: %d factorisations for the day (at most 1,000)", st.lu))
-- a step across kinks alone stands: no restart (before: every kink
-- restarted CVODE, restarts >= kinks; then a restart at a late prediction)
T.check(st.restarts == 0, string.format("cvode: %d restarts (none)", st.restarts))
-- the model's zero functions are all kinks, and a step whose crossings are
-- kinks alone stands wherever they lie: cvode does not evaluate them (each
-- evaluation is one of the whole model, one a step). Measured: 2 (the start)
-- for 3,780 steps; 3,782 when they were evaluated at each step's end to
-- count 164 kinks; bracketed to 1e-6 of the step before: 578 beyond that,
-- to 1e-12 as an event's time: 1,232
T.check(st.zero_evals <= 2 and st.kinks == 0, string.format(
  "cvode: %d evaluations of the zero functions, %d kinks (none: kinks only)", st.zero_evals, st.kinks))
print(string.format("cvode: %d steps, %d kinks, %d restarts, %d factorisations, %d Jacobians, " ..
  "%d evaluations of the zero functions", st.steps, st.kinks, st.restarts, st.lu, st.jacobians,
  st.zero_evals))
-- res against cvode at tol 1e-9 over 0..stop: each of vars within bound
-- relative to its largest value
local function against_cvode(what, res, vars, stop, bound)
  local ref = m:run { solver = "cvode", tol = 1e-9, stop = stop, interval = 600, vars = vars }
  for name in vars:gmatch("[^,]+") do
    local a, b = T.column(res, name), T.column(ref, name)
    local big, worst = 0, 0
    for i = 1, #b do big = math.max(big, math.abs(b[i])) end
    for i = 1, #b do worst = math.max(worst, math.abs(a[i] - b[i]) / big) end
    T.check(#a == #b and worst <= bound, string.format("%s: %s against cvode at 1e-9 %.3g relative (%g), " ..
      "%d and %d rows", name, what, worst, bound, #a, #b))
    print(string.format("%-18s %-20s %.3g", name, what, worst))
  end
end
against_cvode("cvode at 1e-6", res, vars, 86400, 1e-4)

-- A kink function within its rounding of 0 after a step taken again to
-- end at the kink (esdirk23 at tol 1e-8). House 6's thermostat leaves its
-- lower limit at t = 12,823 s: its kink function k (T_set - T) + x - yMin
-- moves with the room temperature T = 294 K, whose ulp (5.7e-14 K, 2.3e-14
-- in the function) the function crosses in 5e-10 s. The step that
-- straddled the kink was taken again to end at it, its end state (T not
-- moved by an ulp) did not cross, and the next step located the kink
-- 2.5e-10 s after its start on the dense output, and was taken again, and
-- so on: steps of 2.5e-10 s, the run never passed t = 12,823 s. Now the
-- step after a retaken step that ended without the crossing cuts at a kink
-- within the retaken step's length on its dense output (solve/adapt.c, as
-- cvode does). Checked: the run passes the kink in a bounded number of
-- steps and agrees with cvode at tol 1e-9 over 0..13,200 s.
local vars6 = "vol.T,pump.m_flow,house[6].room.T,house[6].pi.y,house[30].room.T"
local stop = 13200
local res6, st6 = m:run { solver = "esdirk23", tol = 1e-8, stop = stop, interval = 600, vars = vars6 }
T.check(st6.t_end == stop, string.format("esdirk23 reached t = %.17g (%g)", st6.t_end, stop))
T.check(st6.steps < 80000, string.format("esdirk23: %d steps to t = %g s (at most 80,000)", st6.steps, stop))
T.check(st6.kinks >= 2, string.format("esdirk23: %d kinks located (house 6's limits)", st6.kinks))
local y6 = T.column(res6, "house[6].pi.y")
T.check(y6[#y6] > 0.02 + 1e-6,
  string.format("house 6's thermostat off its lower limit at the end (y = %.9g)", y6[#y6]))
against_cvode("esdirk23 at 1e-8", res6, vars6, stop, 1e-6)
T.done()
