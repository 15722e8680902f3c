-- The district heating network of examples/district_heating.lua (n houses) beside a
-- testlib Alarm, which sends the process signal `sig` (2: SIGINT, 15: SIGTERM) during the
-- `after`-th evaluation of the model: an interruption at a point of a computation known by
-- the work done, not by time (tests/cli/test_sigint.sh).
local lied = require "lied"
local tl = require "lied.testlib"
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
local District = dofile(here .. "/../../examples/district_heating.lua")
return lied.model "Alarmed" {
  parameters = { n = 1000, after = 0, sig = 2 },
  net = District { n = lied.param "n" },
  alarm = tl.Alarm { after = lied.param "after", signal = lied.param "sig" },
}
