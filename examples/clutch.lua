-- examples/clutch.lua: a clutch starting a load (lied.rotational,
-- docs/rotational.md). An engine (an inertia driven by a constant torque,
-- with viscous friction) idles at 150 rad/s; from t = 1 s a clutch is
-- pressed in over half a second (its normal force a Ramp) and drags the
-- gearbox's input shaft, which drives a wheel through a 3:1 gear against a
-- viscous load. The clutch slips, then sticks (a state event) and the
-- train runs on as one shaft; at t = 4 s the engine's torque steps up and
-- the clutch cannot pass on the share the load needs: it slips again
-- (another state event).
--   lied run examples/clutch.lua              time, engine.w, input.w, clutch.mode
--   lied examples/clutch.lua [plot.png]       simulate and plot
local lied = require "lied"
local rot = require "lied.rotational"
local S = require "lied.signals"

local Clutch = lied.model "Clutch" {
  doc = "engine, clutch, gear and load: slip, stick and slip again",
  engine = rot.Inertia { J = 0.3, w = 150 },
  drive = rot.Torque { tau = 15 },
  friction = rot.Damper { d = 0.1 },
  ground = rot.Fixed {},
  clutch = rot.Clutch { mu = 0.35, peak = 1.2, cgeo = 0.12, fn_max = 1500 },
  press = S.Ramp { height = 1, t0 = 1, duration = 0.5 },
  input = rot.Inertia { J = 0.02 },
  gear = rot.IdealGear { ratio = 3 },
  wheel = rot.Inertia { J = 4 },
  load = rot.Damper { d = 1.2 },
  throttle = S.Step { height = 200, t0 = 4 },
  connect = {
    { "engine.flange_a", "drive.flange" }, { "throttle.y", "drive.u" },
    { "engine.flange_a", "friction.flange_b" },
    { "ground.flange", "friction.flange_a" },
    { "engine.flange_b", "clutch.flange_a" }, { "input.flange_a", "clutch.flange_b" },
    { "press.y", "clutch.f_normalized" },
    { "input.flange_b", "gear.flange_a" }, { "wheel.flange_a", "gear.flange_b" },
    { "wheel.flange_b", "load.flange_b" }, { "ground.flange", "load.flange_a" },
  },
  experiment = { stop = 6, solver = "dopri45", tol = 1e-8, interval = 0.01,
                 vars = "engine.w,input.w,wheel.w,clutch.mode,clutch.tau" },
}

lied.main(Clutch, { plot = { "engine.w", "input.w", "wheel.w" } })
return Clutch
