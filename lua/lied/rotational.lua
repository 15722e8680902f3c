-- lied.rotational: one-dimensional rotational mechanics in LIED form (C
-- components after Modelica.Mechanics.Rotational, see docs/rotational.md).
--
--   local rot = require "lied.rotational"
--   shaft = rot.Inertia { J = 0.1, w = 100 }
--   spring = rot.Spring { c = 1e3 }
--
-- Classes: Fixed, Inertia, Speed (nodes: they own the motion of a shaft),
-- Spring, Damper, SpringDamper, IdealGear, Clutch, Brake, Torque,
-- SpeedSensor (branches: they read the motion of the nodes they connect and
-- return torques), TorqueSensor (in series: a branch on the driving node, a
-- node for what it drives). A node feeds any number of branches; their
-- torques are summed. Signal inputs and outputs take any real signal
-- (require "lied.signals"). print(lied.describe(rot.Clutch)) lists a
-- class's parameters.
local lied = require "lied"
return lied.library("rotational")
