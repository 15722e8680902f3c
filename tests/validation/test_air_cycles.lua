-- The energy of the air-cycle examples closes (docs/turbo.md, "Examples"):
-- examples/simple_air_cycle.lua and examples/gas_turbine.lua. At every
-- output the enthalpy flowing in at the sources, plus the power put in
-- (heat, a starter), less what leaves at the sinks is what the stores gain:
-- the shafts' kinetic energy, volumes' internal energy, flow-through cells'
-- M h (1e-6 of the throughput; measured to rounding); over the run the
-- integrated flows (trapezoid over the outputs) match the stored energy's
-- change to 1e-6 of the energy passed through.
local T = require "tests.testing"
local A = require "tests.energy_account"

do
  local r = A.run("examples/simple_air_cycle.lua", {
    sources = { "bleed", "ram", "bleed2", "ram2" }, sinks = { "cabin", "ram_out", "cabin2", "ram_out2" },
    shafts = { { "shaft", 0.02 }, { "shaft2", 0.01 } }, volumes = { "duct" } },
    { stop = 30, solver = "dopri45", tol = 1e-10, interval = 0.01 })
  local worst, integ = r.worst, r.integ
  print(string.format("simple_air_cycle: power balance worst %.2e of the throughput, energy over 30 s %.2e",
    worst, integ))
  T.check(worst < 1e-6, "simple_air_cycle: the power balance closes at every output: " .. worst)
  T.check(integ < 1e-6, "simple_air_cycle: the energy closes over the run: " .. integ)
end

do
  local r = A.run("examples/gas_turbine.lua", {
    sources = { "intake" }, sinks = { "exhaust" }, shafts = { { "shaft", 0.02 } },
    cells = { "combustor" }, inputs = { "combustor.Q", "starter.P" } },
    { stop = 40, solver = "dopri45", tol = 1e-10, interval = 0.01 })
  local worst, integ = r.worst, r.integ
  print(string.format("gas_turbine: power balance worst %.2e of the throughput, energy over 40 s %.2e",
    worst, integ))
  T.check(worst < 1e-6, "gas_turbine: the power balance closes at every output: " .. worst)
  T.check(integ < 1e-6, "gas_turbine: the energy closes over the run: " .. integ)
end

os.exit(T.done())
