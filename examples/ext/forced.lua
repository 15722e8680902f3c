-- forced.lua: a model from an out-of-tree library (duffing.so and its Lua
-- composites): n forced Duffing oscillators (`--set n=1000` for many).
--   LIED_PATH=<build dir>:<this dir> lied run forced.lua --stop 5
local lied = require "lied"
local models = require "duffing_models"

return lied.model "ForcedArray" {
  parameters = { n = 2 },
  unit = lied.array(models.Forced, lied.param "n"),
  experiment = { stop = 20, dt = 1e-3, solver = "rk4", vars = "unit[1].osc.x,unit[2].osc.v" },
}
