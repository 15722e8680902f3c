-- Independent copies whose linear section has a constant matrix (a body
-- spun by a constant torque about a revolute joint: I a = tau), run by fused
-- RK4 steps: every chunk of copies must use its own factors. Before the
-- factors were kept per chunk, fused steps marked the batch factorised
-- after the first chunk's stages and copies 33.. read unset factors
-- (phi stayed far from the analytic value). Output off, so no recording
-- evaluation factorises everything first; output intervals of 25 steps, so
-- the steps go in blocks.
local lied = require "lied"
local mech = require "lied.mechanics"
local T = require "tests.testing"

local tau, I, n = 1.0, 0.25, 100
local Spinner = lied.model "Spinner" {
  fixed = mech.Fixed {},
  joint = mech.Revolute { tau = tau },
  body = mech.Body { m = 2.0, I = I },
  connect = { { "fixed.frame_b", "joint.frame_a" }, { "joint.frame_b", "body.frame_a" } },
}
local Many = lied.model "Many" { s = lied.array(Spinner, n) }

for _, fuse in ipairs { true, false } do
  local b = lied.build(Many)
  local info = b:info()
  T.eq(info.constant_sections, 1, "one batch of constant sections")
  T.eq(info.copies, n, "independent copies")
  local _, st = b:run { stop = 1, dt = 0.01, interval = 0.25, solver = "rk4", out = "none",
                        memory = false, fuse = fuse }
  T.eq(st.steps, 100, "steps")
  -- phi = tau / (2 I) t^2 (RK4 is exact on a quadratic); one factorisation per copy
  T.eq(st.factorisations, n, "factorised once per copy")
  local worst = 0
  for i = 1, n do
    local phi = b:value(("s[%d].joint.phi"):format(i))
    worst = math.max(worst, math.abs(phi - tau / (2 * I)))
  end
  T.near(worst, 0, 1e-14, ("largest error of phi(1) over the copies (fuse = %s)"):format(fuse))
end
T.done()
