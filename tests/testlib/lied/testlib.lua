-- lied.testlib: small C components used by lied's own tests (built for the
-- tests only: testlib.so, loaded from LIED_PATH, which ctest sets to the
-- build tree's tests/testlib). Its signal blocks are lied.signals' (aliases
-- below: Sine takes A, w as before).
local tl = require "testlib" -- the plugin: lied.library("testlib")
if rawget(tl, "Gain") then return tl end -- already extended (cached table)
local lied = require "lied"
local signals = require "lied.signals"
tl.Constant = signals.Constant
tl.Gain = signals.Gain
tl.Add = signals.Add
tl.Integrator = signals.Integrator
-- y = A sin(w t)
tl.Sine = lied.alias(signals.Sine, { w = 1 }, signals.renamed { A = "amplitude" })
return tl
