-- Elements with modes start in the mode their start values give (the start's
-- initial calls choose it before the check at build and before the run's
-- first evaluation: docs/events.md, "The start of a run"); a model singular in
-- the modes the start values give is still refused, at build (singular
-- "whatever the state", with the modes named) or at the start of the run,
-- and a section singular in every mode (no modes) is refused at build as
-- before, its message unchanged. tests/validation/test_start_modes.lua has
-- the models that now run.
local lied = require "lied"
local rot = require "lied.rotational"
local el = require "lied.electrical"
local S = require "lied.signals"
local T = require "tests.testing"

local ROT_HINT = "shaft without inertia, or a motion prescribed twice (a node whose torque "
  .. "balance has no inertia"
local EL_HINT = "electrical network without a unique solution (a loop of voltage sources"
local MODES = "(its matrix depends on parameters only, and on the modes its elements start in, "
  .. "chosen from the start values)"
local PARAMS = "(its matrix depends on parameters only);"

local function fails(name, def, pats, what)
  T.raises(function() return lied.build(lied.model(name)(def)) end, pats, what, "model")
end
local fr = { mu = 0.5, cgeo = 0.2, fn_max = 100 }

-- 1. A brake on a shaft held at rest: stuck, and no torque holds a given
-- motion (the mode the start values give is singular)
fails("BrakeAtRest", {
  v = rot.Speed { w_ref = 0, w = 0 }, one = S.Constant { k = 1 }, b = rot.Brake(fr),
  connect = { { "v.flange", "b.flange" }, { "one.y", "b.f_normalized" } } },
  { ROT_HINT, "the linear section of b is singular whatever the state " .. MODES,
    "tearing variables: b.tau" }, "brake on a shaft held at rest")

-- 2. A clutch between two shafts held at one speed: stuck between two
-- prescribed motions
fails("ClutchSameSpeed", {
  a = rot.Speed { w_ref = 5, w = 5 }, b = rot.Speed { w_ref = 5, w = 5 },
  one = S.Constant { k = 1 }, c = rot.Clutch(fr),
  connect = { { "a.flange", "c.flange_a" }, { "b.flange", "c.flange_b" },
              { "one.y", "c.f_normalized" } } },
  { ROT_HINT, "the linear section of c is singular whatever the state " .. MODES,
    "tearing variables: c.tau" }, "clutch between two equal speeds")

-- 3. An ideal diode with Goff = 0 that a current source drives backward: it
-- cannot block the current (Goff = 0) nor conduct it backward; its handler
-- switches back and forth at the start, and the section's message is given
fails("DiodeBackward", {
  src = el.CurrentSource { I = -2 }, d = el.Diode { Goff = 0, Ron = 0.5 },
  r = el.Resistor { R = 3 }, g = el.Ground {}, n1 = el.Node {}, n2 = el.Node {},
  connect = { { "g.p", "src.p" }, { "src.n", "n1.p" }, { "n1.p", "d.p" }, { "d.n", "n2.p" },
              { "n2.p", "r.p" }, { "r.n", "g.p" } } },
  { EL_HINT, "the linear section of d, n1, n2, r is singular whatever the state " .. MODES },
  "diode driven backward")

-- 4. An ideal switch held open (control false) with Goff = 0 in series with
-- a current source: open is the mode the start values give
fails("SwitchOpen", {
  src = el.CurrentSource { I = 2 }, sw = el.IdealSwitch { Goff = 0 },
  off = S.BooleanConstant { k = false },
  r = el.Resistor { R = 3 }, g = el.Ground {}, n1 = el.Node {}, n2 = el.Node {},
  connect = { { "g.p", "src.p" }, { "src.n", "n1.p" }, { "n1.p", "sw.p" }, { "sw.n", "n2.p" },
              { "n2.p", "r.p" }, { "r.n", "g.p" }, { "off.y", "sw.control" } } },
  { EL_HINT, "singular whatever the state " .. MODES, "tearing variables: sw.s" },
  "switch held open")

-- 5. Sections singular in every state, without modes: refused at build with
-- the message they had (two current sources in series at a junction; a gear
-- between two prescribed speeds)
local ok, err = pcall(lied.build, lied.model "CurrentCutSet" {
  a = el.CurrentSource { I = 1 }, b = el.CurrentSource { I = 2 }, g = el.Ground {},
  n = el.Node {},
  connect = { { "g.p", "a.p" }, { "a.n", "n.p" }, { "n.p", "b.p" }, { "b.n", "g.p" } } })
T.check(not ok, "two current sources in series are refused")
T.check(tostring(err):find(EL_HINT, 1, true) and tostring(err):find("singular whatever the state "
  .. PARAMS, 1, true) and not tostring(err):find("modes", 1, true),
  "current cut set: the structural message, no modes: " .. tostring(err))
fails("GearSpeeds", {
  a = rot.Speed { w_ref = 1, w = 1 }, b = rot.Speed { w_ref = 2, w = 2 },
  g = rot.IdealGear { ratio = 2 },
  connect = { { "a.flange", "g.flange_a" }, { "b.flange", "g.flange_b" } } },
  { "g: residual res does not depend on the tearing variables", ROT_HINT },
  "gear between two speeds")

-- 6. Built (the check at t = 0 sees the shaft accelerated by the input, so
-- the brake slips), but a run that starts at t = 1, where the input has
-- stepped back to 0 and the shaft is at rest, starts stuck: singular there
local B = lied.build(lied.model "BrakeLater" {
  v = rot.Speed { w_ref = 0, w = 0 }, u = S.Step { offset = 5, height = -5, t0 = 0.5 },
  one = S.Constant { k = 1 }, b = rot.Brake(fr),
  connect = { { "v.flange", "b.flange" }, { "one.y", "b.f_normalized" }, { "u.y", "v.u" } } })
local res, _, rerr = B:run { start = 1, stop = 2, out = "none" }
T.check(rerr ~= nil, "the run from t = 1 fails")
for _, p in ipairs { "at t = 1: singular linear section (pivot 1 of 1); tearing variables: b.tau; "
                     .. "section of b; " .. ROT_HINT } do
  T.check(tostring(rerr):find(p, 1, true), string.format("%q in %q", p, tostring(rerr)))
end
T.eq(lied.error_kind(rerr), "model", "a run's singular section is of kind model")
-- ... and from t = 0 it runs, slipping forward
res = assert(B:run { stop = 0.2, interval = 0.1, vars = "b.mode,b.tau" })
T.eq(T.column(res, "b.mode")[1], 1, "from t = 0 the brake slips forward")

T.done()
