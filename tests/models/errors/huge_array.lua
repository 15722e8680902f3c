-- Nested arrays of 2^32 - 1 times 2^20 components: more than any memory.
local lied = require "lied"
local tl = require "lied.testlib"
local Inner = lied.model "Inner" { x = lied.array(tl.Constant { k = 1 }, 1048576) }
return lied.model "Huge" {
  parameters = { n = 4294967295 },
  y = lied.array(Inner, lied.param "n"),
}
