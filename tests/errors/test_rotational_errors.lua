-- Errors of the rotational library (lied.rotational, docs/rotational.md):
-- structural errors and bad parameters refused when the model is built
-- (naming the ports or the component), and the failures of a run (a gear
-- whose shafts start at speeds that do not follow its ratio) reported with
-- the component and the time; a stuck brake on a node whose motion is
-- prescribed is a singular section, refused at build.
local lied = require "lied"
local rot = require "lied.rotational"
local th = require "lied.thermal"
local S = require "lied.signals"
local T = require "tests.testing"

local function fails(def, pats, what)
  T.raises(function() return lied.build(lied.model "Top"(def)) end, pats, what, "model")
end
local function run_fails(def, pats, what)
  local res, _, err = lied.build(lied.model "Top"(def)):run { stop = 0.1, out = "none" }
  T.check(res and err, what .. ": the run fails")
  for _, p in ipairs(pats) do
    T.check(tostring(err):find(p, 1, true), string.format("%s: %q in %q", what, p, tostring(err)))
  end
end

-- structure: node to node, branch to branch, unconnected branches, other domains
fails({ a = rot.Inertia {}, b = rot.Inertia {}, connect = { { "a.flange_b", "b.flange_a" } } },
  { "cannot connect a.flange_b to b.flange_a: both are node ports of flange (connect node to branch)" },
  "two nodes")
fails({ s = rot.Spring {}, d = rot.Damper {}, connect = { { "s.flange_b", "d.flange_a" } } },
  { "cannot connect s.flange_b to d.flange_a: both are branch ports of flange" }, "two branches")
fails({ a = rot.Inertia {}, s = rot.Spring {}, connect = { { "a.flange_b", "s.flange_a" } } },
  { "unconnected branch: s.flange_b (every flange branch needs a connection)" }, "spring end free")
fails({ t = rot.Torque {} }, { "unconnected branch: t.flange" }, "torque source alone")
fails({ a = rot.Inertia {}, c = th.HeatCapacitor {}, connect = { { "a.flange_b", "c.port" } } },
  { "incompatible ports: a.flange_b is flange, c.port is heat; flanges connect only to flanges" },
  "flange to a heat port")
fails({ a = rot.Inertia {}, k = S.Constant {}, connect = { { "k.y", "a.flange_a" } } },
  { "incompatible ports: k.y is real, a.flange_a is flange" }, "signal to a flange")
fails({ s1 = rot.TorqueSensor {}, s2 = rot.TorqueSensor {},
        connect = { { "s1.flange_b", "s2.flange_a" }, { "s2.flange_b", "s1.flange_a" } } },
  { "rotational loop without a node: ", "s2 -> s1 -> s2" }, "a loop of torque sensors")
fails({ a = rot.Inertia {}, b = rot.Inertia {}, c = rot.Clutch {},
        connect = { { "a.flange_b", "c.flange_a" }, { "b.flange_a", "c.flange_b" } } },
  { "unconnected input: c.f_normalized" }, "clutch without its normal force")
-- a massless node held only by a spring has no acceleration
fails({ g = rot.Fixed {}, a = rot.Inertia { J = 0 }, s = rot.Spring {},
        connect = { { "g.flange", "s.flange_a" }, { "a.flange_b", "s.flange_b" } } },
  { "shaft without inertia", "give it an Inertia J > 0 or couple it rigidly to one",
    "the linear section of a is singular whatever the state", "tearing variables: a.a" },
  "massless node")

-- parameters
fails({ a = rot.Inertia { J = -1 } }, { "a: parameter J = -1 [kg.m2] must be >= 0" }, "negative J")
fails({ a = rot.Speed { T = 0 } }, { "a: parameter T = 0 [s] must be > 0" }, "speed lag T = 0")
fails({ s = rot.Spring { c = -1 }, a = rot.Inertia {}, b = rot.Inertia {},
        connect = { { "a.flange_b", "s.flange_a" }, { "b.flange_a", "s.flange_b" } } },
  { "s: parameter c = -1 [N.m/rad] must be >= 0" }, "negative stiffness")
fails({ d = rot.Damper { d = -1 } }, { "d: parameter d = -1 [N.m.s/rad] must be >= 0" },
  "negative damping")
fails({ a = rot.Inertia {}, b = rot.Brake { peak = 0.5 }, connect = { { "a.flange_b", "b.flange" } } },
  { "b: parameter peak = 0.5 [1] must be >= 1" }, "static below kinetic friction")
fails({ b = rot.Brake { mu = -0.1 } }, { "b: parameter mu = -0.1 [1] must be >= 0" },
  "negative friction coefficient")
fails({ a = rot.Inertia {}, b = rot.Inertia {}, g = rot.IdealGear { ratio = 0 },
        connect = { { "a.flange_b", "g.flange_a" }, { "b.flange_a", "g.flange_b" } } },
  { "g: IdealGear: ratio must not be 0" }, "gear ratio 0")

-- runs: shafts whose start speeds break the gear's constraint; a brake that
-- sticks on a node whose motion is prescribed (no torque can hold it)
run_fails({ a = rot.Inertia { w = 10 }, b = rot.Inertia { w = 4 }, g = rot.IdealGear { ratio = 2 },
            connect = { { "a.flange_b", "g.flange_a" }, { "b.flange_a", "g.flange_b" } } },
  { "at t = 0", "g: the speeds of its flanges do not follow the ratio: w_a = 10 rad/s, ratio w_b = 8 rad/s" },
  "gear start speeds")
-- (only outputs read the brake's torque: the evaluation at build includes them, so the
-- model is refused when it is built)
fails({ v = rot.Speed {}, one = S.Constant { k = 1 }, b = rot.Brake {},
        connect = { { "v.flange", "b.flange" }, { "one.y", "b.f_normalized" } } },
  { "the linear section of b is singular whatever the state", "tearing variables: b.tau",
    "or a stuck brake on one: remove one of them" }, "brake on a speed source")
-- consistent start speeds run
local res, _, err = lied.build(lied.model "Top" {
  a = rot.Inertia { w = 10 }, b = rot.Inertia { w = 5 }, g = rot.IdealGear { ratio = 2 },
  connect = { { "a.flange_b", "g.flange_a" }, { "b.flange_a", "g.flange_b" } } }):run { stop = 0.1, out = "none" }
T.check(res and not err, "consistent start speeds run: " .. tostring(err))

-- lied linearize moves one state at a time: a gear's two speeds then differ from the ratio by
-- the finite difference (4.9e-5 of a speed), which the start-speed check refused ("gear: the
-- speeds of its flanges do not follow the ratio: w_a = 0 rad/s, ratio w_b = -2.4e-05 rad/s",
-- examples/dc_drive.lua). Two inertias through a gear, a damper on a: der(w_a) = -d w_a / J_eq,
-- J_eq = J_a + J_b / ratio^2, the other eigenvalues 0; a start that breaks the ratio by far
-- more than that still fails (above)
for _, ratio in ipairs { 4, -0.25, 30 } do
  local Ja, Jb, d = 0.5, 2, 3
  local lin = lied.build(lied.model "Top" {
    a = rot.Inertia { J = Ja, w = 3 * ratio }, b = rot.Inertia { J = Jb, w = 3 }, g = rot.IdealGear { ratio = ratio },
    f = rot.Fixed {}, dmp = rot.Damper { d = d },
    connect = { { "a.flange_b", "g.flange_a" }, { "b.flange_a", "g.flange_b" }, { "a.flange_a", "dmp.flange_b" },
                { "f.flange", "dmp.flange_a" } } }):linearize { eig = true }
  local lam = -d / (Ja + Jb / ratio ^ 2)
  local least, zeros = 0, 0
  for _, e in ipairs(lin.eigenvalues) do
    if e[1] < least then least = e[1] end
    if math.abs(e[1]) < 1e-6 * math.abs(lam) and e[2] == 0 then zeros = zeros + 1 end
  end
  T.near(least, lam, 1e-6 * math.abs(lam), "linearize through a gear of ratio " .. ratio .. ": -d/J_eq")
  T.eq(zeros, 3, "linearize through a gear of ratio " .. ratio .. ": three eigenvalues 0")
end

os.exit(T.done())
