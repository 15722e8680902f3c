-- examples/rlc.lua: the step response of a series RLC circuit (lied.electrical,
-- docs/electrical.md). A voltage source steps from 0 to 10 V at t = 0.05 s into R = 2 Ohm,
-- L = 0.5 H and C = 10 mF in series: underdamped, the capacitor's voltage rings towards 10 V
-- at sqrt(1/(L C) - (R/2L)^2) = 14.0 rad/s and decays at R/2L = 2 /s. The junction between R
-- and L is the one linear section (1x1, constant); the capacitor's voltage and the inductor's
-- current are the states. The energy the source delivers (a PowerSensor into an Integrator)
-- is what the inductor and the capacitor hold plus what the resistor dissipated into its heat
-- port (a heat capacity of 1 J/K: its temperature rise in K is the heat in J).
--   lied run examples/rlc.lua              capacitor voltage, current, energies
--   lied examples/rlc.lua [plot.png]       two panels: voltages and current; the energies
local lied = require "lied"
local el = require "lied.electrical"
local th = require "lied.thermal"
local S = require "lied.signals"

local RLC = lied.model "RLC" {
  doc = "series RLC, a 10 V step; the energy delivered, stored and dissipated",
  parameters = { R = 2, L = 0.5, C = 0.01, V = 10 },
  gnd = el.Ground {},
  step = S.Step { height = lied.param "V", t0 = 0.05 },
  src = el.VoltageSource {},
  meter = el.PowerSensor {},
  r = el.Resistor { R = lied.param "R", heat_port = 1 },
  junction = el.Node {},
  l = el.Inductor { L = lied.param "L" },
  c = el.Capacitor { C = lied.param "C" },
  heat = th.HeatCapacitor { C = 1, T = 293.15 },
  delivered = S.Integrator {},
  connect = {
    { "step.y", "src.u" }, { "src.n", "gnd.p" }, { "src.p", "meter.pc" }, { "meter.nc", "r.p" },
    { "meter.pv", "src.p" }, { "meter.nv", "gnd.p" }, { "meter.y", "delivered.u" },
    { "r.n", "junction.p" }, { "l.p", "junction.p" }, { "l.n", "c.p" }, { "c.n", "gnd.p" },
    { "r.heat", "heat.port" },
  },
  experiment = { stop = 3, solver = "dopri45", tol = 1e-10, interval = 0.005,
                 vars = "src.v,c.v,l.i,junction.p.v,delivered.y,heat.T,r.P,l.E,c.E" },
}

-- two panels: the voltages and the current; the energy delivered, stored (the inductor's and
-- the capacitor's E) and dissipated (the heat capacity's rise)
local function energy_plot(res, opts)
  local t, v, vc, i = res:column("time"), res:column("src.v"), res:column("c.v"), res:column("l.i")
  local delivered, heat, stored, both = res:column("delivered.y"), {}, {}, {}
  local El, Ec, T = res:column("l.E"), res:column("c.E"), res:column("heat.T")
  for k = 1, #t do
    stored[k] = El[k] + Ec[k]
    heat[k] = T[k] - 293.15
    both[k] = stored[k] + heat[k]
  end
  local ok, err = require("lied.plot").draw(nil, { file = opts.file, title = opts.title,
    layout = { 2, 1 }, panels = {
      { series = { { x = t, y = v, label = "source [V]" }, { x = t, y = vc, label = "capacitor [V]" },
                   { x = t, y = i, label = "current [A]", axis = 2 } }, ylabel = "[V]", y2label = "[A]" },
      { series = { { x = t, y = delivered, label = "delivered" }, { x = t, y = stored, label = "stored" },
                   { x = t, y = heat, label = "dissipated" },
                   { x = t, y = both, label = "stored + dissipated", dash = 2 } },
        xlabel = "time [s]", ylabel = "energy [J]" } } })
  if not ok then error(err, 0) end
end

lied.main(RLC, { plot = energy_plot })
return RLC
