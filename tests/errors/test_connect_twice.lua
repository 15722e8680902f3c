-- A connection declared twice (after resolution: either order of its ends,
-- port aliases, array elements, nested composites) is an error naming both
-- declarations; malformed connect entries are errors naming connect.
local lied = require "lied"
local tl = require "lied.testlib"
local T = require "tests.testing"

local here = "test_connect_twice.lua:"

-- the same pair twice, on two lines: each line is named
T.raises(function()
  return lied.build(lied.model "Twice" {
    g = tl.Ground {}, j = tl.Slider {}, b = tl.Mass {},
    connect = {
      { "g.flange_b", "j.flange_a" },
      { "j.flange_b", "b.flange_a" },
      { "j.flange_b", "b.flange_a" },
    },
  })
end, { here .. "17: connection declared twice", 'connect {"j.flange_b", "b.flange_a"} in Twice',
  "joins j.flange_b and b.flange_a", here .. "16 (" }, "same order", "model")

-- once in each order
T.raises(function()
  return lied.build(lied.model "Swapped" {
    g = tl.Ground {}, j = tl.Slider {}, b = tl.Mass {},
    connect = { { "g.flange_b", "j.flange_a" }, { "j.flange_b", "b.flange_a" },
      { "b.flange_a", "j.flange_b" } },
  })
end, { here .. "28: connection declared twice", 'connect {"b.flange_a", "j.flange_b"}',
  'already joined by connect {"j.flange_b", "b.flange_a"} in Swapped at ', here .. "27 (" },
  "either order", "model")

-- real signals: an output to the same input twice (not "fed by a and a")
T.raises(function()
  return lied.build(lied.model "Sig" {
    c = tl.Constant {}, g = tl.Gain {},
    connect = { { "c.y", "g.u" }, { "g.u", "c.y" } },
  })
end, { "connection declared twice", "joins c.y and g.u" }, "signal", "model")

-- through a port alias of a composite
local Inner = lied.model "Inner" {
  j = tl.Slider {}, ports = { a = "j.flange_a", b = "j.flange_b", b2 = "j.flange_b" },
}
T.raises(function()
  return lied.build(lied.model "Alias" {
    g = tl.Ground {}, i = Inner, m = tl.Mass {},
    connect = { { "g.flange_b", "i.a" }, { "i.b", "m.flange_a" }, { "m.flange_a", "i.b2" } },
  })
end, { "connection declared twice", "joins i.j.flange_b and m.flange_a" }, "alias", "model")

-- an alias and the port it stands for, at two nesting levels: the inner
-- model connects j to m and exposes both ends; the outer one connects them again
local Both = lied.model "Both" {
  j = tl.Slider {}, m = tl.Mass {},
  connect = { { "j.flange_b", "m.flange_a" } },
  ports = { a = "j.flange_a", jb = "j.flange_b", ma = "m.flange_a" },
}
T.raises(function()
  return lied.build(lied.model "Nested" {
    g = tl.Ground {}, x = Both,
    connect = { { "g.flange_b", "x.a" }, { "x.ma", "x.jb" } },
  })
end, { "connection declared twice", "joins x.j.flange_b and x.m.flange_a",
  'connect {"j.flange_b", "m.flange_a"} in x', 'connect {"x.ma", "x.jb"} in Nested' }, "nested",
  "model")

-- array elements: the same element pair reached by a literal index twice
T.raises(function()
  return lied.build(lied.model "Arr" {
    c = lied.array(tl.Constant {}, 3), g = lied.array(tl.Gain {}, 3),
    connect = { { "c[1].y", "g[1].u" }, { "c[2].y", "g[2].u" }, { "c[3].y", "g[3].u" },
      { "g[2].u", "c[2].y" } },
  })
end, { "connection declared twice", "joins c[2].y and g[2].u" }, "array", "model")

-- an array of composites: every copy's connection is declared twice
local Cell = lied.model "Cell" {
  c = tl.Constant {}, g = tl.Gain {}, connect = { { "c.y", "g.u" }, { "g.u", "c.y" } },
}
T.raises(function() return lied.build(lied.model "Cells" { cells = lied.array(Cell, 4) }) end,
  { "connection declared twice", "in cells joins cells[1].c.y and cells[1].g.u" }, "cells", "model")

-- not an error: branching (one source, two sinks) and two different links
local ok = pcall(function()
  return lied.build(lied.model "Fine" {
    c = tl.Constant {}, g = tl.Gain {}, h = tl.Gain {},
    connect = { { "c.y", "g.u" }, { "c.y", "h.u" } },
  })
end)
T.check(ok, "branching is not a duplicate")

-- malformed connect entries
local function decl(connect)
  return function() return lied.model "M" { c = tl.Constant {}, g = tl.Gain {}, connect = connect } end
end
T.raises(decl(5), { here, "model M: connect must be a table, got number" }, "connect = 5")
T.raises(decl "c.y", { here, "connect must be a table, got string" }, "connect = string")
T.raises(decl { { "c.y", "g.u", "g.u" } }, { here, "connect[1] must be a pair", "extra element 3" },
  "third element")
T.raises(decl { { "c.y", "g.u", where = 1 } }, { "connect[1] must be a pair", 'extra element "where"' },
  "named element")
T.raises(decl { { "c.y", "g.u\0junk" } }, { here, "connect[1]: port path 2 contains a NUL" }, "NUL")
T.raises(decl { { "c.y", "" } }, { "connect[1]: port path 2 is empty" }, "empty")
T.raises(decl { { "c.y", 5 } }, { here, "connect[1] must be" }, "number end")
T.raises(decl { x = { "c.y", "g.u" } }, { "connect must be a list", 'key "x"' }, "hash key")
T.raises(decl { [3] = { "c.y", "g.u" } }, { "connect must be a list", "key 3" }, "hole")
T.raises(decl { { "c.y", "g.u" }, 7 }, { "connect[2] must be" }, "number entry")
T.raises(function() return lied.model "M" { c = tl.Constant {}, ports = 3 } end,
  { "ports must be a table" }, "ports = 3")
T.raises(function() return lied.model "M" { c = tl.Constant {}, parameters = "x" } end,
  { "parameters must be a table" }, "parameters = string")
-- through lied.core.build directly (no Lua checks): a NUL is still refused
T.raises(function()
  return lied.core.build { { name = "M", parent = 0, connect = { { "c.y", "g.u\0x" } } } }
end, { "NUL" }, "core NUL")

T.done()
