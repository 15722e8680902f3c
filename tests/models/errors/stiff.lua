-- A stiff decay x' = k x (k = lied.param "k", default -1e6) and an
-- exponential blow-up for positive k: for the solver error paths. The
-- integrator's gain k is its own (der(x) = k u, u = x): a Gain block of k
-- in the loop would fault when k x leaves the doubles, before the state does.
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "Stiff" {
  parameters = { k = -1e6 },
  i = tl.Integrator { x = 1, k = lied.param "k" },
  connect = { { "i.y", "i.u" } },
  experiment = { stop = 1, dt = 0.1 },
}
