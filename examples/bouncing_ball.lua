-- examples/bouncing_ball.lua: a ball released at rest 1 m above a rigid
-- floor bounces with a coefficient of restitution 0.8. Each impact is a
-- state event (docs/events.md): the solver locates the time the height
-- crosses zero and the ball's handler reverses and scales the velocity.
-- The impact times have a closed form (tests/validation/test_events_ball.lua);
-- the impacts accumulate at about 4.06 s, so the run stops at 3 s.
--   lied run examples/bouncing_ball.lua        time, ball.y, ball.v
--   lied examples/bouncing_ball.lua [plot.png] simulate and plot
local lied = require "lied"
local pm = require "lied.mechanics"

local Ball = lied.model "Ball" {
  doc = "a ball dropped from 1 m onto a rigid floor, restitution 0.8",
  ball = pm.BouncingBall { y = 1, v = 0, g = 9.81, e = 0.8 },
  experiment = { stop = 3, solver = "dopri45", tol = 1e-10, vars = "ball.y,ball.v" },
}

lied.main(Ball, { plot = { "ball.y", "ball.v" } })
return Ball
