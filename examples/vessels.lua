-- examples/vessels.lua: three communicating vessels (docs/domains.md, section 1).
-- Water flows from t1 through valve p1 to a splitter and on through p2 / p3
-- into t2 / t3 until the three levels agree on 3.5/3 m.
--   lied run examples/vessels.lua            CSV of the levels and flows
--   lied examples/vessels.lua [plot.png]     simulate and plot
local lied = require "lied"
local tf = require "lied.thermofluid"

local water = tf.liquid { rho = 1000, beta = 0 } -- incompressible
local valve = tf.PressureDrop { dp_ref = 1e4, v_ref = 1e-3, L = 1e3, medium = water }
local tank = { A = 0.1, p_env = 1e5, g = 9.81, medium = water }

local Vessels = lied.model "Vessels" {
  doc = "communicating vessels: t1 -> p1 -> s -> {p2 -> t2, p3 -> t3}",
  t1 = tf.TankOut(tank) { level = 2.0 },
  t2 = tf.TankIn(tank) { level = 1.0 },
  t3 = tf.TankIn(tank) { level = 0.5 },
  p1 = valve,
  p2 = valve,
  p3 = valve,
  s = tf.Splitter { N = 2 },
  connect = {
    { "t1.outlet", "p1.inlet" },
    { "p1.outlet", "s.inlet" },
    { "s.outlet1", "p2.inlet" },
    { "p2.outlet", "t2.inlet" },
    { "s.outlet2", "p3.inlet" },
    { "p3.outlet", "t3.inlet" },
  },
  experiment = { start = 0, stop = 300, solver = "rk4", dt = 0.01,
                 vars = "t1.level,t2.level,t3.level,p1.m_flow,p2.m_flow,p3.m_flow" },
}

lied.main(Vessels, { plot = { "t1.level", "t2.level", "t3.level",
                              "p1.m_flow", "p2.m_flow", "p3.m_flow" } })
return Vessels
