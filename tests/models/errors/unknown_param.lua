-- A misspelt parameter (mass for m).
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "UnknownParam" {
  b = tl.Mass { mass = 1 },
}
