-- One real-signal connector for every domain: a signals.Constant drives a
-- mechanics Revolute and a thermofluid Pump in one model; a controller
-- chain of signal blocks feeds both; the old per-library names still work
-- and connect across libraries.
local lied = require "lied"
local S = require "lied.signals"
local mech = require "lied.mechanics"
local tf = require "lied.thermofluid"
local T = require "tests.testing"

-- one Constant, two domains: the joint's torque tau + u, the pump's speed
local Both = lied.model "Both" {
  c = S.Constant { k = 0.75 },
  f = mech.Fixed {}, r = mech.Revolute { tau = 0.5 }, b = mech.Body { I = 0.25, g = { 0, 0 } },
  src = tf.Source {}, pump = tf.Pump { omega_from_input = 1, L = 1e3 }, k = tf.Sink {},
  connect = {
    { "f.frame_b", "r.frame_a" }, { "r.frame_b", "b.frame_a" }, { "c.y", "r.u" },
    { "src.outlet", "pump.inlet" }, { "pump.outlet", "k.inlet" }, { "c.y", "pump.omega_in" },
  },
}
local built = lied.build(Both)
T.near(built:derivatives()["r.w"], (0.5 + 0.75) / 0.25, 1e-15, "Constant drives the Revolute")
T.eq(built:value("pump.w"), 0.75, "the same Constant drives the Pump's speed")
T.eq(built:value("r.u"), 0.75, "the joint's input reads the signal")

-- signal blocks between the source and the physical inputs: a Gain to the
-- joint, a Limiter to the pump, a Sine through an Add to both
local Chain = lied.model "Chain" {
  s = S.Sine { amplitude = 2, w = 1 }, c = S.Constant { k = 1 },
  sum = S.Add { k1 = 1, k2 = 3 }, g = S.Gain { k = 0.5 }, lim = S.Limiter { uMin = 0, uMax = 2 },
  f = mech.Fixed {}, r = mech.Revolute {}, b = mech.Body { I = 2, g = { 0, 0 } },
  src = tf.Source {}, pump = tf.Pump { omega_from_input = 1, L = 1e3 }, k = tf.Sink {},
  connect = {
    { "s.y", "sum.u1" }, { "c.y", "sum.u2" }, { "sum.y", "g.u" }, { "sum.y", "lim.u" },
    { "f.frame_b", "r.frame_a" }, { "r.frame_b", "b.frame_a" }, { "g.y", "r.u" },
    { "src.outlet", "pump.inlet" }, { "pump.outlet", "k.inlet" }, { "lim.y", "pump.omega_in" },
  },
}
built = lied.build(Chain)
for _, t in ipairs { 0, 0.4, 2 } do
  local u = 2 * math.sin(t) + 3
  T.near(built:derivatives(t)["r.w"], 0.5 * u / 2, 1e-14, "Sine + Constant -> Gain -> Revolute at t = " .. t)
  T.near(built:value("pump.w"), math.min(math.max(u, 0), 2), 1e-15, "... -> Limiter -> Pump at t = " .. t)
end

-- old names across libraries: a thermofluid source drives a joint, a
-- mechanics source a pump, a testlib Gain between them
local Old = lied.model "Old" {
  step = tf.Step { offset = 1, height = 2, t0 = 1 }, sine = mech.Sine { A = 3, w = 2 },
  g = require("lied.testlib").Gain { k = 2 },
  f = mech.Fixed {}, r = mech.Prismatic {}, b = mech.Body { m = 2, g = { 0, 0 } },
  src = tf.Source {}, pump = tf.Pump { omega_from_input = 1, L = 1e3 }, k = tf.Sink {},
  connect = {
    { "step.y", "g.u" }, { "g.y", "r.u" }, { "f.frame_b", "r.frame_a" }, { "r.frame_b", "b.frame_a" },
    { "src.outlet", "pump.inlet" }, { "pump.outlet", "k.inlet" }, { "sine.y", "pump.omega_in" },
  },
}
built = lied.build(Old)
T.near(built:derivatives(0.5)["r.v"], 2 * 1 / 2, 1e-15, "tf.Step -> tl.Gain -> Prismatic before t0")
T.near(built:value("pump.w"), 3 * math.sin(1), 1e-15, "mech.Sine (A, w) -> Pump")
T.near(built:derivatives(1.5)["r.v"], 2 * 3 / 2, 1e-15, "after t0")

-- the aliases: same classes, old parameter names and defaults
T.eq(mech.Constant.class, S.Constant, "mech.Constant is signals.Constant")
T.eq(mech.Sine.class, S.Sine, "mech.Sine is signals.Sine")
T.eq(tf.Sine.domain, "thermofluid", "tf.Sine: signals' Sine in the thermofluid domain")
local function value(src, t)
  local b = lied.build(lied.model "V" { s = src })
  b:derivatives(t)
  return b:value("s.y")
end
T.eq(value(mech.Constant, 0), 0, "mech.Constant default k = 0")
T.eq(value(require("lied.testlib").Constant, 0), 1, "tl.Constant default k = 1")
T.near(value(mech.Sine {}, 0.3), math.sin(0.3), 1e-15, "mech.Sine default w = 1 rad/s")
T.near(value(tf.Sine {}, 0.3), math.sin(2 * math.pi * 0.3), 1e-15, "tf.Sine default f = 1 Hz")
T.near(value(mech.Sine { A = 2, w = 3, phase = 1, offset = 4 }, 0.3), 4 + 2 * math.sin(0.9 + 1), 1e-14,
  "mech.Sine with A, w, phase, offset")
do
  local b = lied.build(lied.model "A" { s = lied.array(mech.Sine { A = 2 }, 2), c = lied.array(mech.Constant, 2) })
  b:derivatives(0.3)
  T.near(b:value("s[2].y"), 2 * math.sin(0.3), 1e-15, "aliases in arrays")
  T.eq(b:value("c[1].y"), 0, "a bare alias in an array")
end

-- incompatible: a signal to a frame says so
T.raises(function()
  lied.build(lied.model "X" { c = S.Constant {}, f = mech.Fixed {}, connect = { { "c.y", "f.frame_b" } } })
end, { "incompatible ports", "c.y is real", "f.frame_b is frame", "real signal ports connect only" },
  "signal to frame")
T.done()
