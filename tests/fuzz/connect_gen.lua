-- tests/fuzz/connect_gen.lua: the libFuzzer driver for connect lists. The
-- bytes choose the entries of a model's connect list over a fixed set of
-- children (plain components, arrays, a composite with port aliases and a
-- connection of its own): pairs of known ports in either order, aliases,
-- array elements in and out of range, repeated and swapped entries, and
-- malformed entries (a third element, a NUL, empty and garbage paths, a
-- number, a connect that is not a table). Then build and, when it builds, a
-- short run. The oracle: a model whose connections, resolved to leaf ports,
-- join the same two ports twice must not build, and "declared twice" must
-- name a real repetition; a violation raises "ORACLE: ...", which
-- fuzz_host.c turns into a crash.
local lied = require "lied"
local tl = require "lied.testlib"

local Both = lied.model "Both" {
  j = tl.Slider {}, m = tl.Mass {},
  connect = { { "j.flange_b", "m.flange_a" } },
  ports = { a = "j.flange_a", jb = "j.flange_b", jb2 = "j.flange_b", ma = "m.flange_a" },
}
local alias = { ["x.a"] = "x.j.flange_a", ["x.jb"] = "x.j.flange_b", ["x.jb2"] = "x.j.flange_b",
  ["x.ma"] = "x.m.flange_a" }
local ports = { "g.flange_b", "s.flange_a", "s.flange_b", "b.flange_a", "b.flange_b", "c.y", "k.u",
  "k.y", "x.a", "x.jb", "x.jb2", "x.ma", "x.j.flange_a", "x.j.flange_b", "x.m.flange_a",
  "x.m.flange_b", "arr[1].flange_a", "arr[2].flange_a", "arr[3].flange_b", "arr[1].flange_b",
  "cs[1].y", "cs[2].y", "gs[1].u", "gs[2].u", "gs[1].y", "gs[2].y" }
local garbage = { "", "x.zz", "arr[0].flange_a", "arr[4].flange_a", "arr[-1].flange_a",
  "c.y\0k.u", "c", "x", "arr.flange_a", "g.flange_b.s", "..", "c.y ", "[1]", "arr[1]",
  string.rep("q", 300), "x.j", "x.a.b", "arr[99999999999999999999].flange_a" }
local children = {
  g = tl.Ground {}, s = tl.Slider {}, b = tl.Mass {}, c = tl.Constant {}, k = tl.Gain {}, x = Both,
  arr = lied.array(tl.Mass {}, 3), cs = lied.array(tl.Constant {}, 2), gs = lied.array(tl.Gain {}, 2),
}

local function canon(p)
  return alias[p] or p
end

return function(bytes)
  local conns, pairs_seen, dup = {}, { ["x.j.flange_b|x.m.flange_a"] = true }, false
  local i = 1
  local mode = bytes:byte(1) or 0
  while i + 2 <= #bytes and #conns < 24 do
    local a, b, f = bytes:byte(i + 1, i + 3)
    i = i + 3
    local pa, pb = ports[a % #ports + 1], ports[b % #ports + 1]
    local entry
    if f % 16 == 0 then
      pa = garbage[a % #garbage + 1]
    elseif f % 16 == 1 and #conns > 0 then -- repeat an earlier entry, maybe swapped
      local e = conns[b % #conns + 1]
      if type(e) == "table" and type(e[1]) == "string" then pa, pb = e[1], e[2] end
      if f & 16 ~= 0 then pa, pb = pb, pa end
    end
    if f % 32 == 2 then entry = { pa, pb, "extra" }
    elseif f % 64 == 3 then entry = 5
    elseif f % 64 == 4 then entry = { pa }
    else entry = { pa, pb } end
    conns[#conns + 1] = entry
    if type(entry) == "table" and #entry == 2 then
      local ca, cb = canon(entry[1]), canon(entry[2])
      local key = ca < cb and (ca .. "|" .. cb) or (cb .. "|" .. ca)
      if pairs_seen[key] then dup = true end
      pairs_seen[key] = true
    end
  end
  local def = {}
  for k, v in pairs(children) do def[k] = v end
  def.connect = (mode % 16 == 15) and "c.y" or (mode % 16 == 14 and 7 or conns)
  local ok, model = pcall(lied.model "Fuzz", def)
  if not ok then return end
  local built_ok, built = pcall(lied.build, model)
  if built_ok and dup then
    error("ORACLE: a connection declared twice built: " .. bytes:gsub("%c", "."), 0)
  end
  if not built_ok and tostring(built):find("connection declared twice", 1, true) and not dup then
    error("ORACLE: declared twice without a repetition: " .. tostring(built), 0)
  end
  if built_ok then
    pcall(built.run, built, { stop = 0.01, dt = 0.001, out = "none" })
  end
end
