-- cvode's restarts at kinks on a network (examples/district_heating.lua, 30
-- houses, one day, tol 1e-6: 176 kinks of the thermostats' limits). A step
-- that crosses a kink is taken again from its start to end there; the
-- restarted solution lies a rounding apart, and a kink function leaving 0
-- slowly crossed again 1e-10 s after each such end: before the fix every
-- step ended there (millions of steps, the run never finished). Now a kink
-- within the retaken step's length after the end is stepped across, the
-- first step after a kink is the step CVODE would have taken (not a fresh
-- estimate from a tiny order-1 step), and the sparse formulation's Jacobian
-- ages by CVODE's restarted counters; CVODE's steps end at kinks predicted
-- from the kink functions, keeping its history (solve/cvode.c). Checked:
-- the run ends in a bounded number of steps, locates the kinks, restarts
-- CVODE at few of them, and its rooms, plant outlet and pump flow agree
-- with cvode's own run at tol 1e-9 over the day to 1e-4 relative (cvode at
-- 1e-6: its global error). esdirk23 through such kinks:
-- test_kink_chatter.lua.
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
T.check(st.steps < 20000, string.format("cvode: %d steps for the day (at most 20,000)", st.steps))
T.check(st.kinks >= 50, string.format("cvode: %d kinks located (the thermostats' limits)", st.kinks))
-- the kinks are predicted from the kink functions' last values and CVODE's
-- steps end there with their history kept: only steps that still straddle
-- one (a late prediction) are taken again from a restart (before: every kink
-- restarted CVODE, restarts >= kinks)
T.check(st.restarts <= st.kinks / 4, string.format("cvode: %d restarts at %d kinks (at most a quarter)",
  st.restarts, st.kinks))
print(string.format("cvode: %d steps, %d kinks, %d restarts", st.steps, st.kinks, st.restarts))
local ref = m:run { solver = "cvode", tol = 1e-9, stop = 86400, interval = 600, vars = vars }
for name in vars:gmatch("[^,]+") do
  local a, b = T.column(res, name), T.column(ref, name)
  local big, worst = 0, 0
  for i = 1, #b do big = math.max(big, math.abs(b[i])) end
  for i = 1, #b do worst = math.max(worst, math.abs(a[i] - b[i]) / big) end
  T.check(#a == #b and worst <= 1e-4,
    string.format("%s: cvode at 1e-6 against 1e-9 %.3g relative (1e-4), %d and %d rows", name, worst, #a, #b))
  print(string.format("%-18s %.3g", name, worst))
end
T.done()
