-- tests/plugins/badlanes_model.lua: 40 copies of badlanes.Decay (a lane
-- form that differs from its block in lane 5), for lied run --check
-- (tests/plugins/test_check_broken.lua). Copy i decays at rate k = 1 + i/10.
local lied = require "lied"
local bad = require "badlanes"
return lied.model "Decays" {
  e = lied.array(bad.Decay, 40, { k = function(i) return 1 + i / 10 end }),
  experiment = { stop = 0.1, dt = 1e-3, solver = "rk4", interval = 0.01 },
}
