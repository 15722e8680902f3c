-- lied.mechanics: planar multibody mechanics (C components: Fixed, Body,
-- FixedTranslation, Revolute, Prismatic, Spring, Damper, SpringDamper,
-- ElastoGap). See docs/mechanics.md. Drive inputs (Revolute.u, Prismatic.u)
-- take any real signal (require "lied.signals"); Constant and Sine remain
-- here as aliases of the signals classes with their old parameters.
local lied = require "lied"
local mech = lied.library("mechanics")
if lied.has(mech, "Sine") then return mech end -- already extended (cached table)
local signals = require "lied.signals"
-- y = k (default 0)
mech.Constant = lied.alias(signals.Constant, { k = 0 })
-- y = offset + A sin(w t + phase) (defaults A = 1, w = 1 rad/s)
mech.Sine = lied.alias(signals.Sine, { w = 1 }, signals.renamed { A = "amplitude" })
return mech
