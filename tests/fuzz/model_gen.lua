-- tests/fuzz/model_gen.lua: the libFuzzer driver for model declarations.
-- Returns a function(bytes) that decodes the bytes into random Lua tables and
-- strings, declares a model with them through the Lua API (lied.model,
-- lied.array, lied.param, classes called with parameter tables, connections,
-- exposed ports, parameter expressions), builds it, queries it and runs it for
-- a few steps. Every API error is caught (errors are the expected outcome);
-- the harness looks for crashes, sanitizer reports, leaks and hangs.
-- One input in eight is instead a valid model of coupled arrays
-- (tests/fuzz/coupled_gen.lua: lied.each to copy i+1 and i+2, per-copy
-- values, array ends of every kind) run under lied.check: a difference
-- between its fast and plain paths is a finding ("ORACLE: ...", which
-- fuzz_host.c turns into a crash), unless the watchdog stopped a run.
local lied = require "lied"
require "lied.testlib" -- the test library (tests/testlib, on LIED_PATH)
local coupled = dofile((os.getenv("LIED_SRC") or ".") .. "/tests/fuzz/coupled_gen.lua")

local classes = {}
for _, libname in ipairs { "testlib", "mechanics", "thermofluid", "signals", "thermal" } do
  local ok, lib = pcall(lied.library, libname)
  if ok then
    local names = {}
    for k in pairs(lib) do names[#names + 1] = k end
    table.sort(names)
    for _, k in ipairs(names) do
      if lied.core.isclass(lib[k]) then classes[#classes + 1] = lib[k] end
    end
  end
end

local port_names = { "flange_a", "flange_b", "y", "u", "u1", "u2", "frame_a", "frame_b",
  "inlet", "outlet", "port", "heat", "p", "x", "z", "res", "s", "v", "" }
local child_names = { "a", "b", "c", "d", "e", "f", "g", "crab", "pump", "x_1" }
local solvers = { "euler", "heun", "rk3", "rk4" }
for _, s in ipairs(lied.core.solvers()) do solvers[#solvers + 1] = s.name end
local specials = { 0, -1, 1, 2, 0.5, -0.0, 1e300, -1e300, 1 / 0, -1 / 0, 0 / 0, 1e-300,
  2 ^ 31, 2 ^ 53, math.maxinteger, math.mininteger, 3, 10 }

-- how far the inputs get (printed by tests/fuzz/stages.lua)
local stages = { inputs = 0, declared = 0, built = 0, ran = 0, checked = 0 }
_G.LIED_FUZZ_STAGES = stages

return function(bytes)
  stages.inputs = stages.inputs + 1
  local pos = 0
  local function byte()
    pos = pos + 1
    return bytes:byte(pos) or 0
  end
  local function more() return pos < #bytes end
  local function pick(t) return t[byte() % #t + 1] end
  local function str()
    -- a length-prefixed raw string (any bytes), or a known name, or a mutant
    local k = byte() % 4
    if k == 0 then
      local n = byte() % 12
      local s = bytes:sub(pos + 1, pos + n)
      pos = pos + n
      return s
    elseif k == 1 then
      return pick(child_names)
    elseif k == 2 then
      return pick(port_names)
    end
    return pick(child_names) .. pick { ".", "[", "]", "..", "[1]", "[0]", "[-1]", "[99]", "*", "?" }
      .. pick(port_names)
  end
  local function number()
    local k = byte() % 3
    if k == 0 then return pick(specials) end
    if k == 1 then return (byte() - 128) / (byte() % 16 + 1) end
    return byte() % 8
  end
  local function value(depth)
    local k = byte() % 12
    if k <= 4 then return number()
    elseif k == 5 then return str()
    elseif k == 6 then return { number(), number() }
    elseif k == 7 then return lied.param(pick { "n", "k", "m", "p", str() })
    elseif k == 8 then
      local v = number()
      return function(p) return (p[pick { "n", "k", "m" }] or 1) * v end
    elseif k == 9 then return byte() % 2 == 0
    elseif k == 10 then
      if depth < 2 then return { value(depth + 1), value(depth + 1), value(depth + 1) } end
      return {}
    end
    return function() error(pick { "boom", nil, {} }) end
  end
  local function param_table(cls, depth)
    local t = {}
    local ps = cls.params
    for _ = 1, byte() % 4 do
      local name
      if #ps > 0 and byte() % 4 ~= 0 then name = ps[byte() % #ps + 1].name else name = str() end
      t[name] = value(depth)
    end
    return t
  end

  local declare
  local function child(depth)
    local k = byte() % 8
    local c
    if k < 5 or depth >= 2 then
      local cls = pick(classes)
      c = byte() % 4 == 0 and cls or cls(param_table(cls, 0))
    else
      c = declare(depth + 1)
    end
    if byte() % 4 == 0 then
      local n = pick { 0, 1, 2, 3, 8, -1, 2.5, 0 / 0, "3", lied.param "n", lied.param "zz",
        function(p) return p.n end, {} }
      c = lied.array(c, n)
    end
    return c
  end
  local function path()
    local k = byte() % 4
    if k == 0 then return str() end
    local p = pick(child_names)
    if byte() % 3 == 0 then p = p .. "[" .. (byte() % 4) .. "]" end
    if byte() % 4 == 0 then p = p .. "." .. pick(child_names) end
    return p .. "." .. pick(port_names)
  end

  function declare(depth)
    local def = {}
    for _ = 1, byte() % 6 + 1 do
      local name = byte() % 8 == 0 and str() or pick(child_names)
      def[name] = child(depth)
    end
    if byte() % 2 == 0 then
      def.connect = {}
      for i = 1, byte() % 8 do
        if byte() % 16 == 0 then def.connect[i] = { path() }
        else def.connect[i] = { path(), path() } end
      end
    end
    if byte() % 3 == 0 then
      def.parameters = { n = number(), k = value(1) }
      if byte() % 4 == 0 then def.parameters[str()] = value(1) end
    end
    if byte() % 4 == 0 then def.ports = { [pick(port_names)] = path() } end
    if byte() % 8 == 0 then def.experiment = { stop = number(), dt = number() } end
    return lied.model(byte() % 8 == 0 and str() or "Fuzz")(def)
  end

  if byte() % 8 == 0 then -- a valid model of coupled arrays under lied.check
    local model, run, what = coupled(byte, 65)
    run.threads = 2
    local cok, report = pcall(lied.check, model, run)
    if not cok then error("ORACLE: a generated model did not check (" .. what .. "): " .. tostring(report)) end
    if report.interrupted then return end
    stages.checked = stages.checked + 1
    if not report.ok then error("ORACLE: lied.check (" .. what .. "):\n" .. report.text) end
    return
  end
  local ok, model = pcall(declare, 0)
  if not ok then return end
  stages.declared = stages.declared + 1
  pcall(lied.describe, model)
  local over
  if byte() % 4 == 0 then over = { [pick { "n", "k", str() }] = number() } end
  if byte() % 16 == 0 then
    -- the low-level entry: a flattened spec list with a field perturbed
    local fok, specs = pcall(lied.flatten, model, over)
    if fok and #specs > 0 then
      local s = specs[byte() % #specs + 1]
      local field = pick { "parent", "count", "class", "name", "params", "connect", "ports", "array" }
      s[field] = pick { 0, -1, 1, 2, 99, 2 ^ 40, "x", {}, true, { { "a.y", "b.u" } }, pick(classes) }
      pcall(lied.core.build, specs)
    end
  end
  local built
  ok, built = pcall(lied.build, model, over)
  if not ok then return end
  stages.built = stages.built + 1
  pcall(built.info, built)
  pcall(built.vars, built, byte() % 2 == 0 and str() or nil)
  pcall(built.derivatives, built, number())
  pcall(built.value, built, str())
  if not more() and byte() % 2 == 0 then return end
  local opts = { stop = pick { 0.01, 0.1, 0, -1, 1e-300, 0 / 0 }, dt = pick { 0.001, 0.01, 0.05, 0, -1 },
    solver = pick(solvers), memory = byte() % 2 == 0, out = "none" }
  if byte() % 4 == 0 then opts.vars = pick { "*", "*.y", str(), "a*,b?", "" } end
  -- the smallest interval keeps a run within the fuzzer's time-out: 1e-9 asked for up to
  -- 1e8 output points, a legitimate run of minutes once memory = true records them
  if byte() % 4 == 0 then opts.interval = pick { 0.005, 0.02, 0, 1e-5 } end
  if byte() % 8 == 0 then opts[str()] = number() end
  local r, res = pcall(built.run, built, opts)
  if r and res then
    stages.ran = stages.ran + 1
    pcall(res.names, res)
    pcall(res.column, res, byte() % 2 == 0 and str() or byte() % 4)
    pcall(res.nrows, res)
  end
end
