-- lied.units: display units for plots (docs/repl.md, "Units"). Results keep
-- SI values; a plot shows a variable in a display unit derived from its unit
-- (K in degC, Pa in bar, W in kW, rad/s in rpm, m3/s in L/min by default),
-- or in the one asked for: "battery.T:K" in a plot's names or a run's vars,
-- units = {["battery.T"] = "K", Pa = "kPa"} in a plot, units = false for SI.
local units = {}

-- SI unit -> {display unit = {scale, offset}}: display = value * scale + offset
local conv = {
  K = { K = { 1, 0 }, degC = { 1, -273.15 }, degF = { 1.8, -459.67 } },
  Pa = { Pa = { 1, 0 }, kPa = { 1e-3, 0 }, MPa = { 1e-6, 0 }, bar = { 1e-5, 0 }, mbar = { 1e-2, 0 } },
  W = { W = { 1, 0 }, kW = { 1e-3, 0 }, MW = { 1e-6, 0 } },
  J = { J = { 1, 0 }, kJ = { 1e-3, 0 }, MJ = { 1e-6, 0 }, kWh = { 1 / 3.6e6, 0 }, Wh = { 1 / 3600, 0 } },
  ["rad/s"] = { ["rad/s"] = { 1, 0 }, rpm = { 30 / math.pi, 0 }, Hz = { 0.5 / math.pi, 0 } },
  rad = { rad = { 1, 0 }, deg = { 180 / math.pi, 0 } },
  ["m3/s"] = { ["m3/s"] = { 1, 0 }, ["L/min"] = { 6e4, 0 }, ["L/s"] = { 1e3, 0 }, ["m3/h"] = { 3600, 0 } },
  ["kg/s"] = { ["kg/s"] = { 1, 0 }, ["kg/h"] = { 3600, 0 }, ["g/s"] = { 1e3, 0 } },
  m = { m = { 1, 0 }, mm = { 1e3, 0 }, cm = { 1e2, 0 }, km = { 1e-3, 0 } },
  ["m/s"] = { ["m/s"] = { 1, 0 }, ["km/h"] = { 3.6, 0 } },
  s = { s = { 1, 0 }, min = { 1 / 60, 0 }, h = { 1 / 3600, 0 } },
  m3 = { m3 = { 1, 0 }, L = { 1e3, 0 } },
  ["J/kg"] = { ["J/kg"] = { 1, 0 }, ["kJ/kg"] = { 1e-3, 0 } },
}
-- what a plot shows when nothing is asked for
local default = { K = "degC", Pa = "bar", W = "kW", ["rad/s"] = "rpm", ["m3/s"] = "L/min" }
units.default = default

-- The display units a unit converts to, sorted (for messages).
local function choices(si)
  local l = {}
  for k in pairs(conv[si] or {}) do l[#l + 1] = k end
  table.sort(l)
  return table.concat(l, ", ")
end

-- "name:unit" -> name, unit; a name without one -> name, nil.
function units.split(s)
  local n, u = tostring(s):match("^(.-)%s*:%s*([%w/%.]+)%s*$")
  if n and n ~= "" then return n, u end
  return s, nil
end

-- The function converting values of unit si to unit want, and want; an
-- error (a message) when they do not convert.
function units.converter(si, want, name)
  si = si or ""
  if want == nil or want == si then return nil, si end
  -- a signal without a unit (a drive cycle's speed): the unit names it
  if si == "" or si == "1" then return nil, want end
  local c = conv[si] and conv[si][want]
  if not c then
    local what = name and (name .. ": ") or ""
    if not conv[si] then
      error(string.format("%scannot show [%s] in %s (lied converts K, Pa, W, J, rad/s, rad, m3/s, kg/s, m, m/s, s, m3, J/kg)",
        what, si, want), 0)
    end
    error(string.format("%scannot show [%s] in %s (it converts to %s)", what, si, want, choices(si)), 0)
  end
  local scale, offset = c[1], c[2]
  return function(v) return v * scale + offset end, want
end

-- The display unit of variable `name` of unit si: asked in the name
-- ("T:degC"), in opts (a table by name or by unit; false: SI), in the run's
-- vars (shown), else the default.
function units.pick(name, si, asked, opts, shown)
  if asked then return asked end
  if opts == false then return nil end
  if type(opts) == "table" then
    if opts[name] ~= nil then return opts[name] or nil end
    if si and opts[si] ~= nil then return opts[si] or nil end
  end
  if shown and shown[name] then return shown[name] end
  return si and default[si] or nil
end

-- Apply a converter to a list of values (a new list).
function units.apply(f, vs)
  if not f then return vs end
  local out = {}
  for i = 1, #vs do out[i] = f(vs[i]) end
  return out
end

-- The display units that runs' vars asked for, by result (weak keys).
local shown = setmetatable({}, { __mode = "k" })
function units.shown(result) return shown[result] end

-- vars with ":unit" suffixes: the names without them (what the recorder
-- takes) and {name = unit}; nil when none has one.
function units.strip_vars(vars)
  if type(vars) ~= "string" or not vars:find(":", 1, true) then return vars, nil end
  local names, map = {}, {}
  for item in (vars .. ","):gmatch("([^,]*),") do
    local n, u = units.split(item)
    n = n:match("^%s*(.-)%s*$")
    if u then
      if not conv[u] then
        local ok = false
        for _, t in pairs(conv) do ok = ok or t[u] ~= nil end
        if not ok then error(string.format("vars: %s: unknown display unit '%s'", n, u), 0) end
      end
      map[n] = u
    end
    names[#names + 1] = n
  end
  return table.concat(names, ","), map
end

-- Wrap model:run (the C method of built models) so that vars may carry
-- display units: stripped before the run, remembered for the result.
local installed = false
function units.install(core)
  local mt = debug.getregistry()["lied.Model"]
  local methods = mt and mt.methods
  if not methods or installed then return end
  installed = true
  local run = methods.run
  methods.run = function(self, o, ...)
    local map
    if type(o) == "table" and type(o.vars) == "string" and o.vars:find(":", 1, true) then
      local c = {}
      for k, v in pairs(o) do c[k] = v end
      c.vars, map = units.strip_vars(o.vars)
      o = c
    end
    local res, st, err = run(self, o, ...)
    if map and res then shown[res] = map end
    return res, st, err
  end
  units.core = core
end

return units
