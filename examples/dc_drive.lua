-- examples/dc_drive.lua: a speed-controlled DC drive (lied.electrical, lied.rotational,
-- docs/electrical.md). A PI controller sets the voltage of the supply (limited to +-48 V)
-- from the error of the load's speed; the DC motor turns its rotor and, through a 4:1 gear,
-- a load inertia braked by a second DC machine working as a generator into a resistor (a
-- dynamometer: its torque grows with the speed). The speed reference ramps up to 38 rad/s;
-- at t = 4 s a switch adds a second brake resistor in parallel, and the controller raises
-- the voltage to hold the speed. The losses of both machines and the brake resistors go to
-- one heat capacity of 1 J/K (its temperature rise in K is the heat in J), the energy the
-- supply delivers to an Integrator: delivered = kinetic + magnetic energy + heat.
--   lied run examples/dc_drive.lua              speeds, voltage, currents, energies
--   lied examples/dc_drive.lua [plot.png]       speed and reference; voltage and currents
local lied = require "lied"
local el = require "lied.electrical"
local rot = require "lied.rotational"
local th = require "lied.thermal"
local S = require "lied.signals"

local Drive = lied.model "DCDrive" {
  doc = "PI speed control of a DC motor driving an inertia and a generator load through a gear",
  parameters = { w_ref = 38, ratio = 4 },
  -- the supply and its controller
  gnd = el.Ground {},
  supply = el.VoltageSource {},
  meter = el.PowerSensor {},
  delivered = S.Integrator {},
  ref = S.Ramp { height = lied.param "w_ref", t0 = 0.2, duration = 1 },
  speed = rot.SpeedSensor {},
  err = S.Add { k1 = 1, k2 = -1 },
  pi = S.PI { k = 4, Ti = 0.3, yMax = 48, yMin = -48 },
  -- the motor, the gear, the load
  motor = el.DCMachine { Ra = 0.4, La = 4e-3, k = 0.2, heat_port = 1 },
  rotor = rot.Inertia { J = 2e-3 },
  gear = rot.IdealGear { ratio = lied.param "ratio" },
  load = rot.Inertia { J = 0.5 },
  -- the brake: a generator into one resistor, a second switched in parallel at t = 4 s
  brake = el.DCMachine { Ra = 0.2, La = 2e-3, k = 0.8, heat_port = 1 },
  bus = el.Node {},
  r1 = el.Resistor { R = 4, heat_port = 1 },
  r2 = el.Resistor { R = 4, heat_port = 1 },
  sw = el.IdealSwitch { Ron = 0, Goff = 0 }, -- ideal: lossless
  mid = el.Node {},
  at4 = S.Step { height = 1, t0 = 4 },
  close = S.GreaterThreshold { threshold = 0.5 },
  gnd2 = el.Ground {},
  heat = th.HeatCapacitor { C = 1, T = 293.15 },
  connect = {
    { "supply.n", "gnd.p" }, { "supply.p", "meter.pc" }, { "meter.nc", "motor.p" },
    { "meter.pv", "supply.p" }, { "meter.nv", "gnd.p" }, { "motor.n", "gnd.p" },
    { "meter.y", "delivered.u" },
    { "motor.flange", "rotor.flange_a" }, { "rotor.flange_b", "gear.flange_a" },
    { "load.flange_a", "gear.flange_b" }, { "load.flange_b", "brake.flange" },
    { "load.flange_b", "speed.flange" },
    { "ref.y", "err.u1" }, { "speed.y", "err.u2" }, { "err.y", "pi.u" }, { "pi.y", "supply.u" },
    { "brake.p", "bus.p" }, { "brake.n", "gnd2.p" }, { "r1.p", "bus.p" }, { "r1.n", "gnd2.p" },
    { "sw.p", "bus.p" }, { "sw.n", "mid.p" }, { "r2.p", "mid.p" }, { "r2.n", "gnd2.p" },
    { "at4.y", "close.u" }, { "close.y", "sw.control" },
    { "motor.heat", "heat.port" }, { "brake.heat", "heat.port" }, { "r1.heat", "heat.port" },
    { "r2.heat", "heat.port" },
  },
  experiment = { stop = 8, solver = "dopri45", tol = 1e-8, interval = 0.01,
                 vars = "ref.y,load.w,rotor.w,supply.v,motor.i,brake.i,delivered.y,heat.T," ..
                        "motor.tau,brake.tau" },
}

lied.main(Drive, { plot = { units = false, panels = { { "ref.y", "load.w" },
                                       { "supply.v", y2 = { "motor.i", "brake.i" } } } } })
return Drive
