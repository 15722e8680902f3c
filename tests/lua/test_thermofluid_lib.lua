-- Behaviour of the thermofluid library's Lua surface: classes, media, signal
-- inputs, the stdlib pipes, and the variable names tools rely on.
local lied = require "lied"
local tf = require "lied.thermofluid"
local pipes = require "thermofluid.pipes"
local T = require "tests.testing"

-- classes and documentation
for _, n in ipairs { "Source", "Sink", "TankOut", "TankIn", "PressureDrop", "LinearQuadraticDrop",
                     "LaminarDrop", "Splitter", "Junction", "Volume", "Pump", "Heater",
                     "Constant", "Step", "Ramp", "Sine" } do
  T.check(lied.core.isclass(tf[n]), "tf." .. n .. " is a class")
  T.eq(tf[n].domain, "thermofluid", n .. " domain")
end
T.check(lied.describe(tf.TankOut):find("A          = 1", 1, true) ~= nil, "describe lists A")
T.check(require("lied.thermofluid") == tf, "require returns the same table")

-- media vectors
T.eq(#tf.water, 6, "medium vector length")
T.eq(tf.water[1], 1, "water is a liquid")
T.eq(tf.water[2], 995.586, "standard liquid density")
T.eq(tf.water[3], 4184, "standard liquid cp")
T.eq(tf.gas {}[1], 2, "a gas of constant cp")
T.eq(tf.gas {}[2], 287.05, "its default R")
T.eq(tf.gas {}[3], 1005.45, "its default cp")
T.eq(tf.air[1], 5, "air is an ideal gas of NASA polynomials (docs/media.md)")
T.eq(tf.liquid { rho = 1000 }[2], 1000, "liquid rho override")

-- signal inputs drive a source's pressure and temperature
local Driven = lied.model "Driven" {
  p = tf.Ramp { offset = 1e5, height = 1e5, t0 = 1, duration = 2 },
  temp = tf.Step { offset = 300, height = 50, t0 = 0.5 },
  src = tf.Source { p0_from_input = 1, T0_from_input = 1, L = 1e3 },
  snk = tf.Sink { p0 = 1e5 },
  connect = { { "p.y", "src.p0_in" }, { "temp.y", "src.T0_in" }, { "src.outlet", "snk.inlet" } },
}
local m = lied.build(Driven)
m:run { stop = 2, dt = 1e-3 } -- recorded in memory: output blocks run at output points
T.near(m:value("src.outlet.p"), 1.5e5, 1e-6, "source pressure follows the ramp")
T.near(m:value("snk.T"), 350, 1e-9, "source temperature follows the step")
T.near(m:value("src.m_flow"), 1e5 * 0.5 / 1e3 * 0.5, 1e-9, "flow integrates (p0 - p)/L")

local Wave = lied.model "Wave" {
  s = tf.Sine { offset = 1, amplitude = 2, f = 0.25, phase = 0 },
  c = tf.Constant { k = 7 },
  src = tf.Source { p0_from_input = 1, L = 1 },
  snk = tf.Sink { p0_from_input = 1 },
  connect = { { "s.y", "src.p0_in" }, { "c.y", "snk.p0_in" }, { "src.outlet", "snk.inlet" } },
}
m = lied.build(Wave)
m:run { stop = 1, dt = 1e-3 }
T.near(m:value("s.y"), 3, 1e-12, "sine at a quarter period")
T.near(m:value("c.y"), 7, 0, "constant")

-- stdlib pipes: inertance and volume from the geometry, ports through aliases
local P = lied.model "P" {
  src = tf.Source { p0 = 2e5 },
  pipe = pipes.HeatedPipe { l = 2, d = 0.05, Q = 1e3 },
  snk = tf.Sink {},
  connect = { { "src.outlet", "pipe.inlet" }, { "pipe.outlet", "snk.inlet" } },
}
local d = lied.build(P):derivatives(0)
local L = 2 / (math.pi * 0.05 ^ 2 / 4)
T.near(d["src.m_flow"], 1e5 / L, 1e-9, "pipe inertance l/A")
-- a flow-through cell's fixed mass: the standard liquid at its start state
-- (p0 = 1 bar = p_ref, so rho = 995.586), not at the stream's 2 bar
local rho = 995.586
T.near(d["pipe.heater.h"], 1e3 / (rho * 2 * math.pi * 0.05 ^ 2 / 4), 1e-9,
  "heater holds the pipe's fluid volume")

-- names the tests and tools rely on
local V = dofile("examples/vessels.lua")
local names = {}
for _, v in ipairs(lied.build(V):vars()) do names[v.name] = v end
for _, n in ipairs { "t1.level", "t2.level", "t3.level", "p1.m_flow", "p2.m_flow", "p3.m_flow" } do
  T.check(names[n] ~= nil, n .. " exists")
end
T.eq(names["t1.level"].unit, "m", "level unit")
T.eq(names["p1.m_flow"].unit, "kg/s", "flow unit")
local code, out = T.sh(T.lied .. " run examples/vessels.lua --interval 100")
T.eq(code, 0, "lied run examples/vessels.lua")
T.eq(out:match("^[^\n]*"), "time,t1.level,t2.level,t3.level,p1.m_flow,p2.m_flow,p3.m_flow",
  "CSV header of the vessels")


-- Junction: mixing by mass from a total flow of eps (1e-6 kg/s) on, so the
-- enthalpy flow out is the sum of the enthalpy flows in; below eps the
-- weights fade to equal ones: w_i = (|m_i| + d)/(S + 2d), d = eps (1 - S/eps)^2
local function mixed(m1, m2)
  local J = lied.model "J" {
    a = tf.MassFlowSource { m_flow = m1, T0 = 300 }, b = tf.MassFlowSource { m_flow = m2, T0 = 350 },
    j = tf.Junction { N = 2 }, snk = tf.Sink {},
    connect = { { "a.outlet", "j.inlet1" }, { "b.outlet", "j.inlet2" }, { "j.outlet", "snk.inlet" } },
  }
  local b = lied.build(J)
  b:derivatives(0)
  return b:value("j.T")
end
T.near(mixed(0.3, 3e-5), (0.3 * 300 + 3e-5 * 350) / (0.3 + 3e-5), 1e-13, "junction: by mass")
T.near(mixed(2e-6, 1e-6), (2e-6 * 300 + 1e-6 * 350) / 3e-6, 1e-13, "junction: by mass from S = 2 eps")
local d = 1e-6 * (1 - 4e-7 / 1e-6) ^ 2
T.near(mixed(3e-7, 1e-7), ((3e-7 + d) * 300 + (1e-7 + d) * 350) / (4e-7 + 2 * d), 1e-13,
  "junction: regularised below eps")
T.near(mixed(0, 0), 325, 1e-13, "junction: equal weights at zero flow")
T.done()
