-- One thermofluid outlet feeding two inlets: the domain forbids branching.
local lied = require "lied"
local tf = require "lied.thermofluid"
local drop = tf.PressureDrop { L = 1e3 }
return lied.model "Branch" {
  src = tf.Source {}, p1 = drop, p2 = drop, k1 = tf.Sink {}, k2 = tf.Sink {},
  connect = {
    { "src.outlet", "p1.inlet" }, { "src.outlet", "p2.inlet" },
    { "p1.outlet", "k1.inlet" }, { "p2.outlet", "k2.inlet" },
  },
}
