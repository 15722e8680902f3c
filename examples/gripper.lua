-- examples/gripper.lua: a light object (10 g) clamped between the two jaws
-- of a gripper. Each jaw contact is a stiff ElastoGap (c = 1e7 N/m,
-- d = 10 N.s/m) preloaded by 1e-5 m (100 N clamping force); the jaws are one
-- body (1 kg) on a prismatic actuator driven by a sine force, and the
-- object slides on its own prismatic joint, so it only moves with the jaws
-- through the contacts. The object starts 2e-6 m off centre.
-- Parameter T_D (dialectic time constant, default 0.01 s) goes to every
-- joint and contact. The rigid form (--set T_D=0) rings at about
-- sqrt(2 c / m) = 44.7e3 rad/s and needs dt ~ 1e-5; the dialectic form
-- replaces the ringing by a smooth relaxation with the same time-averaged
-- penetration and runs with rk3 at dt = T_D.
--   lied run examples/gripper.lua
--   lied examples/gripper.lua [plot.png]   penetration for T_D = 0 and 0.01
local lied = require "lied"
local mech = require "lied.mechanics"

local h = 0.02            -- jaw offset from the actuator frame [m]
local preload = 1e-5      -- penetration of each jaw at the centred position [m]

local Gripper = lied.model "Gripper" {
  doc = "object clamped between two elasto-gap jaws driven by a prismatic actuator",
  parameters = { T_D = 0.01 },
  ground = mech.Fixed {},
  drive = mech.Sine { A = 2, w = 2 * math.pi },
  actuator = mech.Prismatic { e = { 1, 0 }, T_D = lied.param "T_D" },
  jaws = mech.Body { m = 1, I = 0.01 },
  left = mech.FixedTranslation { r = { -h, 0 } },
  right = mech.FixedTranslation { r = { h, 0 } },
  object = mech.Prismatic { e = { 1, 0 }, s = 2e-6, T_D = lied.param "T_D" },
  part = mech.Body { m = 0.01, I = 1e-6 },
  gap_left = mech.ElastoGap { c = 1e7, d = 10, n = { 1, 0 }, s0 = h + preload, T_D = lied.param "T_D" },
  gap_right = mech.ElastoGap { c = 1e7, d = 10, n = { -1, 0 }, s0 = h + preload, T_D = lied.param "T_D" },
  connect = {
    { "ground.frame_b", "actuator.frame_a" },
    { "drive.y", "actuator.u" },
    { "actuator.frame_b", "jaws.frame_a" },
    { "actuator.frame_b", "left.frame_a" },
    { "actuator.frame_b", "right.frame_a" },
    { "ground.frame_b", "object.frame_a" },
    { "object.frame_b", "part.frame_a" },
    { "left.frame_b", "gap_left.frame_a" },
    { "object.frame_b", "gap_left.frame_b" },
    { "right.frame_b", "gap_right.frame_a" },
    { "object.frame_b", "gap_right.frame_b" },
  },
  experiment = { stop = 1, dt = 0.01, solver = "rk3" },
}

-- As the main script: run T_D = 0 (rigid, dt = 1e-6) and T_D = 0.01 (rk3,
-- dt = 1e-3 for a fine plot; dt = 0.01 also works) over the first 50 ms and
-- plot the left jaw's penetration of both.
if lied.script and debug.getinfo(1, "S").source == "@" .. lied.script then
  local plot = require "lied.plot"
  local stop = 0.05
  local series = {}
  for i, run in ipairs { { T_D = 0, dt = 1e-6 }, { T_D = 0.01, dt = 1e-3 } } do
    local res = lied.simulate(Gripper, { set = { T_D = run.T_D }, dt = run.dt, stop = stop,
      interval = 2e-5, vars = "gap_left.delta" }):run()
    series[i] = { x = res:column("time"), y = res:column("gap_left.delta"),
                  label = string.format("gap_left.delta, T_D = %g s", run.T_D) }
  end
  local ok, err = plot.draw(series, { file = arg and arg[1], title = "Gripper: penetration of the left jaw",
    xlabel = "time [s]", ylabel = "penetration [m]" })
  if not ok then io.stderr:write(tostring(err), "\n") end
end
return Gripper
