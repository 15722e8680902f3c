-- Plugins with one defect each (tests/plugins/broken.c, built as
-- broken_1.so .. broken_22.so): a descriptor lied cannot trust is refused
-- when the library loads, with a message naming the library, the class and
-- the field; what a class's meta declares is refused when a model using it
-- is built, naming the component and its class (issue 47, item 5: these
-- crashed, overflowed the heap, gave a UBSan report or a Lua error from
-- init.lua, or were accepted). Nothing is registered from a refused library.
local lied = require "lied"
local T = require "tests.testing"

local at_load = {
  [1] = "component library 'broken_1', class 1 ('(no name)'): name is NULL",
  [2] = "component library 'broken_2', class 1 ('Lag'): meta is NULL",
  [3] = "component library 'broken_3', class 1 ('Lag'): size = 0",
  [4] = "component library 'broken_4', class 1 ('Lag'): parameter 'T': offset 48 + 8 bytes lies beyond the instance (size 40)",
  [5] = "component library 'broken_5', class 1 ('Lag'): parameter 'T': offset 24 + 8000 bytes lies beyond the instance",
  [6] = "component library 'broken_6', class 1 ('Lag'): params[1].name is NULL (nparams = 3: is the list that long?)",
  [7] = "component library 'broken_7', class 1 ('Lag'): params[0].name is NULL",
  [8] = "component library 'broken_8', class 1 ('Lag'): params[0] and params[1] are both named 'T'",
  [9] = "component library 'broken_9', class 1 ('Lag'): params is NULL with nparams = 2",
  [10] = "component library 'broken_10', class 1 ('Lag'): parameter 'T': offset 28 is not aligned for a double",
  [11] = "a component library's luaopen passed no descriptor (NULL)",
  [12] = "component library 'broken_12': the descriptor has no class list (classes is NULL)",
  [13] = "component library 'broken_13', class 2 ('Lag'): classes 1 and 2 are both named 'Lag'",
  [14] = "component library 'broken_14', class 1 ('my lag'): name 'my lag' is not a name",
  [15] = "component library 'broken_15', class 1 ('Lag'): parameter 'T': the range [1, 0] is empty",
  [16] = "component library 'broken_16', class 1 ('Lag'): domain is NULL",
}
for k, msg in pairs(at_load) do
  T.raises(function() return require("broken_" .. k) end, { msg }, "defect " .. k .. " at load")
  T.check(not lied.core.libraries()["broken_" .. k], "defect " .. k .. ": not registered")
end

local at_build = {
  [17] = "a (Lag): lied_meta_var: a NULL name",
  [18] = "a (Lag): two variables named x (names must be unique within a component)",
  [19] = "a (Lag): port y: its layout is NULL",
  [20] = "a (Lag): block lag: its function is NULL",
  [21] = "a (Lag): lied_meta_port: a NULL name",
  [22] = "a (Lag): lied_meta_zero: an empty name",
}
for k, msg in pairs(at_build) do
  local lib = require("broken_" .. k) -- the descriptor is fine
  T.raises(function() return lied.build(lied.model "M" { a = lib.Lag {} }) end, { msg },
    "defect " .. k .. " at build")
  -- also in an array (the meta runs once, on the prototype) and again (no state kept)
  T.raises(function() return lied.build(lied.model "N" { a = lied.array(lib.Lag, 1000) }) end,
    { "a (Lag)" }, "defect " .. k .. " in an array")
end
-- a library whose meta is refused at build still loads (its descriptor is sound)
T.check(require("broken_17").Lag ~= nil, "the class table of a library whose meta is refused")
T.done()
