-- A kink function within its rounding of 0 after a step taken again to
-- end at the kink (examples/district_heating.lua, 30 houses, esdirk23 at
-- tol 1e-8). House 6's thermostat leaves its lower limit at t = 12,823 s:
-- its kink function k (T_set - T) + x - yMin moves with the room
-- temperature T = 294 K, whose ulp (5.7e-14 K, 2.3e-14 in the function)
-- the function crosses in 5e-10 s. The step that straddled the kink was
-- taken again to end at it, its end state (T not moved by an ulp) did not
-- cross, and the next step located the kink 2.5e-10 s after its start on
-- the dense output, and was taken again, and so on: steps of 2.5e-10 s,
-- the run never passed t = 12,823 s. Now the step after a retaken step
-- that ended without the crossing cuts at a kink within the retaken step's
-- length on its dense output (solve/adapt.c, as cvode does). Checked: the
-- run passes the kink in a bounded number of steps and agrees with cvode
-- at tol 1e-9 (an independent integrator) over 0..13,200 s.
local lied = require "lied"
local T = require "tests.testing"

local have_cvode = pcall(function()
  local S = require "lied.signals"
  lied.build(lied.model "C" { i = S.Integrator {}, c = S.Constant {}, connect = { { "c.y", "i.u" } } })
    :run { solver = "cvode", stop = 1, out = "none" }
end)

local src = os.getenv("LIED_SRC") or "."
local District = dofile(src .. "/examples/district_heating.lua")
local m = lied.build(District, { n = 30 })
local vars = "vol.T,pump.m_flow,house[6].room.T,house[6].pi.y,house[30].room.T"
local stop = 13200
local res, st = m:run { solver = "esdirk23", tol = 1e-8, stop = stop, interval = 600, vars = vars }
T.check(st.t_end == stop, string.format("esdirk23 reached t = %.17g (%g)", st.t_end, stop))
T.check(st.steps < 80000, string.format("esdirk23: %d steps to t = %g s (at most 80,000)", st.steps, stop))
T.check(st.kinks >= 2, string.format("esdirk23: %d kinks located (house 6's limits)", st.kinks))
local y6 = T.column(res, "house[6].pi.y")
T.check(y6[#y6] > 0.02 + 1e-6, string.format("house 6's thermostat off its lower limit at the end (y = %.9g)",
  y6[#y6]))
if not have_cvode then
  print("cvode not in this build: no reference")
  T.done()
end
local ref = m:run { solver = "cvode", tol = 1e-9, stop = stop, interval = 600, vars = vars }
for name in vars:gmatch("[^,]+") do
  local a, b = T.column(res, name), T.column(ref, name)
  local big, worst = 0, 0
  for i = 1, #b do big = math.max(big, math.abs(b[i])) end
  for i = 1, #b do worst = math.max(worst, math.abs(a[i] - b[i]) / big) end
  T.check(#a == #b and worst <= 1e-6,
    string.format("%s: esdirk23 at 1e-8 against cvode at 1e-9 %.3g relative (1e-6), %d and %d rows",
      name, worst, #a, #b))
  print(string.format("%-18s %.3g", name, worst))
end
T.done()
