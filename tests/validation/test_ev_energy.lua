-- examples/ev_thermal.lua: the energy balance of the whole run closes
-- (issue 16): heat in (the drive-cycle load) = energy stored (battery, coolant
-- in the expansion volume, the cold plate and the exchangers' coolant cells)
-- + heat out (radiator and chiller, out of the coolant). The heat flows are
-- integrated by Integrator states of the same solver run, so the balance is a
-- linear invariant of the model's equations: every Runge-Kutta step keeps it
-- to rounding, whatever the step error (docs/thermofluid.md, "Flow-through
-- cells"). Pump, valves, splitter, junction and pipe store nothing. With
-- lied's assertions on (the sanitizer build) the first 900 s of the cycle:
-- the invariant does not depend on the run's length, and the whole cycle's
-- 89,000 steps took 14 s there.
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"

local EV = dofile("examples/ev_thermal.lua")
local Audit = lied.model "EVAudit" {
  ev = EV {},
  e_in = S.Integrator {}, e_rad = S.Integrator {}, e_chill = S.Integrator {},
  connect = { { "ev.heat.y", "e_in.u" }, { "ev.radiator.Q_out", "e_rad.u" },
              { "ev.chiller.Q_out", "e_chill.u" } },
}
local m = lied.build(Audit)

-- the coolant's cells: fixed mass times enthalpy (their energy law)
local function stored()
  local v = function(n) return m:value("ev." .. n) end
  local E = 3e5 * v("battery.T") + v("vol.U") + v("plate.M") * v("plate.h")
  for k = 1, 36 do E = E + v("radiator.M_a") * v(string.format("radiator.h_a[%d]", k)) end
  for k = 1, 10 do E = E + v("chiller.M_a") * v(string.format("chiller.h_a[%d]", k)) end
  return E
end

-- the fixed masses are the start states' rho(p0, T0) V (coolant: rho 1060
-- at p_ref = 1 bar = p0, beta = 4.5e-10 at the default p0)
T.near(m:value("ev.plate.M"), 1060 * 1e-3, 1e-12, "plate: fixed mass rho(p0, T0) V")
T.near(m:value("ev.radiator.M_a"), 1060 * 1e-3 / 36, 1e-12, "radiator: fixed mass of a cell")
T.near(m:value("ev.chiller.M_a"), 1060 * 1e-3 / 10, 1e-12, "chiller: fixed mass of a cell")

local E0 = stored()
local stop = T.checked and 900 or 1800
m:run { stop = stop, solver = "esdirk23", tol = 1e-6 }
local Q_in = m:value("e_in.y")
local Q_out = m:value("e_rad.y") + m:value("e_chill.y")
local dE = stored() - E0
local rel = math.abs(Q_in - dE - Q_out) / Q_in
print(string.format("heat in %.6e J, stored %.6e J, out %.6e J, residual %.3e relative",
  Q_in, dE, Q_out, rel))
T.check(Q_in > 5e6 * stop / 1800 and Q_out > 0.5 * Q_in, "the drive cycle's heat passes through the loop")
T.check(math.abs(dE) > 1e5, "the run changes the stored energy (the balance has three terms)")
-- issue 16 asks 1e-6; the invariant holds to rounding (1e-12 measured)
T.check(rel < 1e-9, string.format("energy balance closes to 1e-9 relative: %.3e", rel))
T.eq(m:value("ev.radiator.Q_out"), m:value("ev.radiator.Q_flow"), "radiator: Q_out carries Q_flow")
T.eq(m:value("ev.chiller.Q_out"), m:value("ev.chiller.Q_flow"), "chiller: Q_out carries Q_flow")
T.done()
