-- A misspelt class name (tl.Mas for tl.Mass).
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "UnknownClass" {
  b = tl.Mas { m = 1 },
}
