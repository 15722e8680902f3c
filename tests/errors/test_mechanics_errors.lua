-- Mechanics modelling mistakes give clear errors: bad parameters, wrong
-- connections, a joint with no inertia behind it.
local lied = require "lied"
local mech = require "lied.mechanics"
local T = require "tests.testing"

local function pendulum(over)
  local m = { f = mech.Fixed {}, r = mech.Revolute {}, l = mech.FixedTranslation { r = { 1, 0 } },
              b = mech.Body {},
              connect = { { "f.frame_b", "r.frame_a" }, { "r.frame_b", "l.frame_a" }, { "l.frame_b", "b.frame_a" } } }
  for k, v in pairs(over or {}) do m[k] = v end
  return lied.model "P"(m)
end
local function build(m) return function() lied.build(m) end end

T.raises(build(pendulum { b = mech.Body { m = -1 } }), { "b: parameter m = -1 [kg] must be > 0" },
  "negative mass")
T.raises(build(pendulum { b = mech.Body { I = 0 } }), { "parameter I = 0", "must be > 0" }, "zero inertia")
T.raises(build(pendulum { l = mech.FixedTranslation { r = { 1, 0, 0 } } }),
  { "l: parameter r takes 2 values, got 3" }, "vector length")
T.raises(build(pendulum { l = mech.FixedTranslation { r = 1 } }), { "parameter r takes 2 values, got 1" },
  "scalar for a vector")
T.raises(build(pendulum { b = mech.Body { mass = 2 } }), { "Body has no parameter 'mass'", "did you mean 'm'" },
  "unknown parameter")
T.raises(build(pendulum { k = mech.Spring { c = -5 } }), { "parameter c = -5", "must be >= 0" },
  "negative stiffness")
T.raises(build(pendulum { k = mech.Damper { d = 0 / 0 } }), { "parameter d", "must be finite" }, "NaN damping")

local P = lied.model "S" {
  f = mech.Fixed {}, p = mech.Prismatic { e = { 0, 0 } }, b = mech.Body {},
  connect = { { "f.frame_b", "p.frame_a" }, { "p.frame_b", "b.frame_a" } },
}
T.raises(build(P), { "p: parameter e = {0, 0}: the direction must not be zero" }, "zero direction")

-- connections
local function wired(connect, extra)
  local m = { f = mech.Fixed {}, r = mech.Revolute {}, b = mech.Body {}, connect = connect }
  for k, v in pairs(extra or {}) do m[k] = v end
  return lied.model "C"(m)
end
T.raises(build(wired { { "f.frame_b", "r.u" }, { "r.frame_b", "b.frame_a" } }),
  { "incompatible ports", "f.frame_b is frame", "r.u is real" }, "frame to real input")
T.raises(build(wired { { "f.frame_b", "r.frame_b" }, { "r.frame_b", "b.frame_a" } }),
  { "cannot connect f.frame_b to r.frame_b" }, "frame_b to frame_b")
T.raises(build(wired { { "r.frame_b", "b.frame_a" } }), { "unconnected frame_a: r.frame_a" },
  "joint without a parent")
T.raises(build(wired { { "f.frame_b", "r.frame_a" }, { "r.frame_c", "b.frame_a" } }),
  { "Revolute has no port 'frame_c'", "did you mean 'frame_a'" }, "port typo")
T.raises(build(wired({ { "f.frame_b", "r.frame_a" }, { "r.frame_b", "b.frame_a" }, { "f.frame_b", "b.frame_a" } })),
  { "input connected twice", "b.frame_a" }, "body on two frames")
-- a spring connects two frame_b (its ports are both frame_a)
T.raises(build(wired({ { "f.frame_b", "r.frame_a" }, { "r.frame_b", "b.frame_a" }, { "b.frame_a", "k.frame_a" } },
  { k = mech.Spring {} })), { "cannot connect b.frame_a to k.frame_a" }, "spring on a frame_a")

-- a joint with nothing to move: its residual cannot see its acceleration
T.raises(build(lied.model "Empty" { f = mech.Fixed {}, r = mech.Revolute {},
  connect = { { "f.frame_b", "r.frame_a" } } }), { "r: residual res does not depend on the tearing variables" },
  "joint without inertia")
-- values beyond what doubles hold make the section's values infinite or NaN: said so, with the
-- residual or coefficient, not 'singular linear section' (the third attack: a body of 1e308 kg)
local function crab(body1, rev)
  return lied.model "Crab" {
    f = mech.Fixed {}, p = mech.Prismatic {}, b1 = mech.Body(body1), r = mech.Revolute(rev or {}),
    rod = mech.FixedTranslation { r = { 0.5, 1.5 } }, b2 = mech.Body { m = 0.5, I = 0.05 },
    connect = { { "f.frame_b", "p.frame_a" }, { "p.frame_b", "b1.frame_a" }, { "p.frame_b", "r.frame_a" },
                { "r.frame_b", "rod.frame_a" }, { "rod.frame_b", "b2.frame_a" } } }
end
for _, c in ipairs {
  { crab { m = 1e308 }, "the residual p.res is" },
  { crab({ m = 1 }, { w = 1e308 }), "the residual r.res is" },
} do
  local res, _, err = lied.build(c[1]):run { stop = 0.1, out = "none" }
  err = tostring(err)
  T.check(res ~= nil and err:find("at t = 0: the linear section cannot be solved: " .. c[2], 1, true)
    and err:find("(a parameter or a start value too large or too small for doubles?); tearing "
      .. "variables: r.a, p.a", 1, true), "a value beyond the doubles: " .. err)
end
T.done()
