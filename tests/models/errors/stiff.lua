-- A stiff decay x' = k x (k = lied.param "k", default -1e6) and an
-- exponential blow-up for positive k: for the solver error paths.
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "Stiff" {
  parameters = { k = -1e6 },
  i = tl.Integrator { x = 1 }, g = tl.Gain { k = lied.param "k" },
  connect = { { "i.y", "g.u" }, { "g.y", "i.u" } },
  experiment = { stop = 1, dt = 0.1 },
}
