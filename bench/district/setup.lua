-- bench/district/setup.lua: the set-up of examples/district_heating.lua for n
-- houses, phase by phase, in processor time (os.clock) and wall-clock time
-- (lied.core.clock): flattening (Lua: the model's tree and connections into
-- specs) and the build (C: specs handed over, instantiate, schedule), with
-- build's instantiate and schedule on their own (wall clock, as
-- `lied info` and `lied run --stats` report them). On a machine shared
-- with other work the wall clock counts the waits too; the processor time
-- does not.
--   lied bench/district/setup.lua N [N ...]        (default 100 1000 10000)
-- prints one line per n:
--   "n N flatten_cpu F build_cpu B flatten_wall FW build_wall BW inst_wall I sched_wall S"
local lied = require "lied"

local District = dofile("examples/district_heating.lua")
local ns = {}
for _, a in ipairs(arg or {}) do
  local n = math.tointeger(tonumber(a))
  if not n or n < 1 then error("bench/district/setup.lua: '" .. a .. "' is not a whole number >= 1", 0) end
  ns[#ns + 1] = n
end
if #ns == 0 then ns = { 100, 1000, 10000 } end
local wall = lied.core.clock
for _, n in ipairs(ns) do
  collectgarbage()
  local c0, w0 = os.clock(), wall()
  local specs = lied.flatten(District, { n = n })
  local c1, w1 = os.clock(), wall()
  local b = lied.core.build(specs)
  local c2, w2 = os.clock(), wall()
  local info = b:info()
  print(string.format("n %d flatten_cpu %.4f build_cpu %.4f flatten_wall %.4f build_wall %.4f " ..
    "inst_wall %.4f sched_wall %.4f", n, c1 - c0, c2 - c1, w1 - w0, w2 - w1, info.t_instantiate,
    info.t_schedule))
  b, specs = nil, nil
  collectgarbage()
end
