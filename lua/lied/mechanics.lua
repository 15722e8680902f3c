-- lied.mechanics: planar multibody mechanics (C components: Fixed, Body,
-- FixedTranslation, Revolute, Prismatic, Spring, Damper, SpringDamper,
-- Constant, Sine). See docs/mechanics.md.
return require("lied").library("mechanics")
