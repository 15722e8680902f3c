-- Bad input to the effectiveness-NTU exchangers, the Pipe and the Separator
-- (docs/thermofluid.md): refused when the model is built, naming the
-- component and the parameter; a stream out of its medium's range during a
-- run names the exchanger and the time.
local lied = require "lied"
local tf = require "lied.thermofluid"
local T = require "tests.testing"

local function fails(def, pats, what)
  T.raises(function() return lied.build(lied.model "Top"(def)) end, pats, what, "model")
end
local function pipe(p)
  return { s = tf.MassFlowSource { m_flow = 0.1 }, pipe = tf.Pipe(p), k = tf.Sink {},
           connect = { { "s.outlet", "pipe.inlet" }, { "pipe.outlet", "k.inlet" } } }
end
fails(pipe { d = 0 }, { "pipe: parameter d = 0 [m] must be > 0" }, "zero diameter")
fails(pipe { l = -1 }, { "pipe: parameter l = -1 [m] must be > 0" }, "negative length")
fails(pipe { mu = 0 }, { "pipe: parameter mu = 0 [Pa.s] must be > 0" }, "zero viscosity")
fails(pipe { ks = -1e-5 }, { "pipe: parameter ks = -1e-05 [m] must be >= 0" }, "negative roughness")
local function ntu(p)
  return { a = tf.MassFlowSource { m_flow = 0.1 }, b = tf.MassFlowSource { m_flow = 0.1 },
           x = tf.CounterFlowNTU(p), ka = tf.Sink {}, kb = tf.Sink {},
           connect = { { "a.outlet", "x.inlet_a" }, { "x.outlet_a", "ka.inlet" },
                       { "b.outlet", "x.inlet_b" }, { "x.outlet_b", "kb.inlet" } } }
end
fails(ntu { UA = -1 }, { "x: parameter UA = -1 [W/K] must be >= 0" }, "negative UA")
fails(ntu { medium_a = { 9, 0, 0, 0, 0, 0 } }, { "x: medium kind 9 is unknown" }, "unknown medium")
local d = ntu {}
d.ka, d.connect[2] = nil, d.connect[4]
d.connect[4] = nil
fails(d, { "unconnected outlet: x.outlet_a" }, "an open outlet")
fails({ s = tf.MassFlowSource { m_flow = 0.1, medium = tf.air }, sep = tf.Separator { medium = tf.air },
        connect = { { "s.outlet", "sep.inlet" } } },
  { "a Separator drains the water of moist air", "tf.moist_air_nasa{...}", "not ideal gas (NASA polynomials)" },
  "a Separator of dry air")

-- an exchanger cooling air below 200 K: the component and the time
local res, _, err = lied.build(lied.model "Cold" {
  a = tf.MassFlowSource { m_flow = 1, T0 = 250, p0 = 1e5, medium = tf.air },
  b = tf.MassFlowSource { m_flow = 1, T0 = 150, p0 = 1e5, medium = tf.gas {} },
  x = tf.CounterFlowNTU { UA = 1e5, medium_a = tf.air, medium_b = tf.gas {} },
  ka = tf.Sink { medium = tf.air }, kb = tf.Sink { medium = tf.gas {} },
  connect = { { "a.outlet", "x.inlet_a" }, { "x.outlet_a", "ka.inlet" },
              { "b.outlet", "x.inlet_b" }, { "x.outlet_b", "kb.inlet" } } }):run { stop = 0.1, out = "none" }
T.check(res and err and tostring(err):find("at t = 0: x: stream a at stream b's inlet temperature: " ..
  "ideal gas (NASA): p = 100000 Pa, T = 150 K: T is outside [200 K, 6000 K]", 1, true),
  "air against a stream at 150 K: " .. tostring(err))

os.exit(T.done())
