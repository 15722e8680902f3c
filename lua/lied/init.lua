-- lied: the Lua side of the host. Model declaration (lied.model, lied.array,
-- lied.param), instantiation (lied.build), simulation (lied.simulate) and
-- the documentation helpers. The engine itself is C (lied.core).
local core = require "lied.core"
local halo = require "lied.halo"

local lied = { version = core.version, core = core }
require("lied.units").install(core) -- model:run takes vars = "battery.T:degC" (lied/units.lua)

local Component = { __name = "lied.Component" }  -- a C class with parameters
local ModelClass = { __name = "lied.ModelClass" }
local Array = { __name = "lied.Array" }
local ParamRef = { __name = "lied.ParamRef" }
local Each = { __name = "lied.Each" }
local Simulation = { __name = "lied.Simulation" }
Simulation.__index = Simulation

-- Where the caller of the caller is: "file.lua:12".
local function where(level)
  local info = debug.getinfo(level + 1, "Sl")
  if not info then return nil end
  local src = info.short_src or "?"
  return string.format("%s:%d", src, info.currentline or 0)
end

local function shallow_copy(t)
  local c = {}
  for k, v in pairs(t or {}) do c[k] = v end
  return c
end

local function is_ident(s)
  return type(s) == "string" and s:match("^[%a_][%w_]*$") ~= nil
end

-- ---- C classes ---------------------------------------------------------------

local class_mt = core.class_metatable()

-- Calling a C class with a parameter table gives a configured component.
class_mt.__call = function(cls, params)
  if params ~= nil and type(params) ~= "table" then
    error(string.format("%s{...} expects a table of parameters, got %s", cls.name,
      type(params)), 2)
  end
  return setmetatable({ class = cls, params = shallow_copy(params), where = where(2) },
    Component)
end

Component.__index = {}
-- A component with an `adapt` function (lied.alias) passes the parameters
-- it is called with through it first.
Component.__call = function(c, params)
  if c.adapt then params = c.adapt(params or {}) end
  local merged = shallow_copy(c.params)
  for k, v in pairs(params or {}) do merged[k] = v end
  return setmetatable({ class = c.class, params = merged, where = where(2), adapt = c.adapt },
    Component)
end

-- lied.alias(class, defaults, adapt): a component of `class` with preset
-- parameters that works like a class (call it with parameters, use it in
-- lied.array): an old name of a class that moved (tf.Constant is
-- signals.Constant). adapt(params) -> params (optional) translates the
-- parameters it is called with, such as old names to new ones.
function lied.alias(cls, defaults, adapt)
  if not core.isclass(cls) then error("lied.alias expects a class, got " .. tostring(cls), 2) end
  local c = cls(defaults or {})
  c.where, c.adapt = nil, adapt
  return c
end
Component.__tostring = function(c)
  return string.format("%s.%s component", c.class.domain, c.class.name)
end

-- ---- errors -------------------------------------------------------------------

-- lied.error_kind(err): "usage" for an error object of kind usage (a bad
-- option or argument: nothing was done), "model" for any other error value
-- (error objects of kind model, and the plain messages of Lua errors).
local Error = getmetatable(core.error("model", ""))
-- lied.pad(s, w): s left-aligned in a column of w characters (string.format's
-- "%-Ns" stops at 99, names are longer).
function lied.pad(s, w)
  s = tostring(s)
  return w > #s and s .. string.rep(" ", w - #s) or s
end

function lied.error_kind(err)
  return getmetatable(err) == Error and err.kind or "model"
end

-- The error err of a run whose variables the model's experiment chose (the
-- user gave no vars), when the build lacks one of them: an override made an
-- array shorter than the experiment assumes (examples/district_heating.lua
-- with --set n=1 records house[2].room.T), and the message named a variable
-- the user never asked for. Only on the error path; not across MPI ranks.
local function experiment_vars_error(model, built, user_vars, err)
  local ev = type(model) == "table" and type(model.experiment) == "table" and model.experiment.vars
  if user_vars ~= nil or type(ev) ~= "string" or core.mpi().size > 1 then return err end
  for item in ev:gmatch("[^,]+") do
    item = item:match("^%s*(.-)%s*$")
    local found = item == ""
    if not found and item:find("[*?]") then
      local ok, list = pcall(built.vars, built, item)
      found = not ok or #list > 0
    elseif not found then
      found = pcall(built.value, built, item)
    end
    if not found then
      return core.error(lied.error_kind(err), string.format("%s: the model's experiment records %s, "
        .. "which this build does not have (an override changed the model's structure?): %s; give "
        .. "vars (--vars) to record others", model.where or model.name, item, core.errtext(err)))
    end
  end
  return err
end

-- built:run(opts) for model (a class with an experiment), its errors raised
-- or returned told apart from the experiment's variables (above); user_vars:
-- the vars the user gave, if any.
function lied.run_experiment(model, built, user_vars, opts)
  local ok, res, stats, err = pcall(built.run, built, opts)
  if not ok then error(experiment_vars_error(model, built, user_vars, res), 0) end
  if err then err = experiment_vars_error(model, built, user_vars, err) end
  return res, stats, err
end

-- A library of C classes: require "lied.<name>" returns lied.library(name).
-- The table is shared by every model of the process (a REPL session loads
-- many): a name it holds is not replaced by assignment (`S.Gain = MyGain` in
-- one model file made every later model's Gain that model, and `S.Sine = nil`
-- removed a class), only new names are added (and those replaced: a model
-- file that adds a class is loaded again after an edit). lied's own modules
-- replace classes by their Lua forms with lied.extend(lib, name, value). The
-- classes live in the table behind the library's (its metatable's), read
-- through __index and __pairs, so that every assignment passes __newindex.
local libraries = {}
local library_inner = setmetatable({}, { __mode = "k" })
local library_added = setmetatable({}, { __mode = "k" })
local function library_index(name, inner)
  return function(_, k)
    local v = inner[k]
    if v ~= nil or type(k) ~= "string" or not k:match("^%u") then return v end
    -- a misspelt class (capitalised, as every class is) is an error with a
    -- suggestion, not a nil that fails later as "attempt to call a nil value"
    local names = {}
    for n in pairs(inner) do if type(n) == "string" then names[#names + 1] = n end end
    table.sort(names)
    local best, near = core.suggest(k, names)
    error(string.format("library %s has no class '%s'%s", name, k,
      best and near or (" (classes: " .. table.concat(names, ", ") .. ")")), 2)
  end
end
function lied.library(name)
  if libraries[name] then return libraries[name] end
  local inner, msg = core.library(name)
  if not inner then
    local names = {}
    for l in pairs(core.libraries and core.libraries() or {}) do names[#names + 1] = l end
    local _, near = core.suggest(tostring(name), names)
    error(msg .. near, 2)
  end
  local added = {} -- names a model file added: its own, replaced when it is loaded again
  local lib = setmetatable({}, {
    __index = library_index(name, inner),
    __pairs = function() return next, inner, nil end,
    __newindex = function(_, k, v)
      if inner[k] ~= nil and not added[k] then
        error(string.format("library %s already holds %s, which every model of the session shares: "
          .. "it cannot be replaced (give your class another name, or keep it in a table of your "
          .. "own)", name, tostring(k)), 2)
      end
      inner[k], added[k] = v, true
    end })
  library_inner[lib], library_added[lib] = inner, added
  libraries[name] = lib
  return lib
end

-- lied.extend(lib, name, value): replace (or add) lib's entry name, as lied's
-- own modules do for the Lua forms of classes (a TimeTable taking rows).
-- lied.has(lib, name): whether lib holds name (no error for a missing class).
function lied.extend(lib, k, v)
  local inner = library_inner[lib]
  if not inner then error("lied.extend expects a library (lied.library)", 2) end
  inner[k], library_added[lib][k] = v, nil
end
function lied.has(lib, k)
  local inner = library_inner[lib]
  if inner then return inner[k] ~= nil end
  return rawget(lib, k) ~= nil
end

-- ---- declarations --------------------------------------------------------------

-- A parameter value: a number or a list of numbers (vector parameters;
-- the class checks the length). Strings (even "2": the command line turns
-- --set text into numbers, the Lua API takes numbers), booleans, functions
-- and tables with other keys are refused, where they are given.
local function describe_value(v)
  if type(v) == "string" then
    local s = #v > 40 and (v:sub(1, 40) .. "...") or v
    return string.format("the string %q%s", s, tonumber(v) and " (write the number without quotes)" or "")
  end
  if type(v) == "number" then return v ~= v and "nan" or tostring(v) end -- 0/0 prints "-nan"
  return type(v) .. (type(v) == "boolean" and (" " .. tostring(v)) or "")
end

-- The first key of a table that is not one of 1..#t (a list with an extra
-- key), or nil; and a key as messages show it.
local function extra_key(t)
  local n = rawlen(t)
  for k in pairs(t) do
    if math.type(k) ~= "integer" or k < 1 or k > n then return k end
  end
end
local function show_key(k) return type(k) == "string" and string.format("%q", k) or tostring(k) end

local function check_number(v, what)
  if type(v) == "number" or core.table_rank(v) then return v end -- or a lied.table
  if type(v) == "table" then -- a list of numbers (a medium such as tf.steam has methods too)
    local n, k = rawlen(v), extra_key(v)
    if k ~= nil then
      error(string.format("%s must be a number or a list of numbers, got a table with the key %s",
        what, tostring(k)), 0)
    end
    for i = 1, n do
      if type(rawget(v, i)) ~= "number" then
        error(string.format("%s[%d] must be a number, got %s%s", what, i,
          describe_value(rawget(v, i)), type(rawget(v, i)) == "table"
            and " (rows of a table or map parameter: give them to lied.table {...})" or ""), 0)
      end
    end
    return v
  end
  error(string.format("%s must be a number, got %s", what, describe_value(v)), 0)
end

-- check_number for the value of one copy (indices, one per array level): the
-- message names the copy
local function copy_number(v, what, ...)
  return check_number(v, string.format("%s (copy [%s])", what, table.concat({ ... }, "][")))
end

-- An array size: a whole number from 0 to 2^32 - 1 (lied.core.build says
-- the same of integers out of range; here: what is not an integer at all).
local function check_size(n, what)
  if type(n) ~= "number" then
    error(string.format("%s: array size must be a whole number, got %s", what, describe_value(n)), 0)
  end
  if n ~= n or n ~= math.floor(n) or n == math.huge or n == -math.huge then
    error(string.format("%s: array size must be a whole number, got %s", what, tostring(n)), 0)
  end
  if n < 0 then error(string.format("%s: array size must be >= 0, got %.17g", what, n), 0) end
  if n > 4294967295 then
    error(string.format("%s: array size %.17g out of range (at most 4294967295)", what, n), 0)
  end
  return math.tointeger(n)
end

-- lied.table {...}: a table or map for table parameters (lua/lied/table.lua).
function lied.table(spec)
  local t = require("lied.table").new(spec, 2) -- not a tail call: the caller's site
  return t
end

-- lied.param "name": a reference to a parameter of the enclosing model.
function lied.param(name)
  if type(name) ~= "string" then error("lied.param expects a parameter name", 2) end
  return setmetatable({ name = name }, ParamRef)
end
ParamRef.__tostring = function(p) return "lied.param \"" .. p.name .. "\"" end

-- lied.array(Class, n [, per]): n copies of Class, named name[1] .. name[n].
-- per = {param = value}: parameters that differ between the copies, each a
-- number (every copy), a function(i, p) of the copy's index (one index per
-- array level, outermost first: function(i, j, p) in an array inside an
-- array) and the enclosing model's parameters, or a list of n values. Keys
-- are parameters of the element, or of its children ("body2.m").
local function is_path(s)
  if type(s) ~= "string" then return false end
  for part in (s .. "."):gmatch("([^.]*)%.") do
    if not is_ident(part) then return false end
  end
  return true
end
function lied.array(element, n, per)
  local mt = getmetatable(element)
  if mt ~= Component and mt ~= ModelClass and not core.isclass(element) then
    error("lied.array expects a component or model class, got " .. tostring(element), 2)
  end
  if core.isclass(element) then element = element({}) end
  if getmetatable(n) ~= ParamRef and type(n) ~= "function" then
    local ok, e = pcall(check_size, n, "lied.array")
    if not ok then error(e, 2) end
  end
  if per ~= nil then
    if type(per) ~= "table" or getmetatable(per) ~= nil then
      error("lied.array(element, n, per): per must be a table {param = value}, got " ..
        describe_value(per), 2)
    end
    for k, v in pairs(per) do
      if not is_path(k) then
        error("lied.array: per-copy parameter names are parameters of the element or dotted paths "
          .. "such as \"body2.m\", got " .. (type(k) == "string" and string.format("%q", k) or tostring(k)), 2)
      end
      if type(v) ~= "number" and type(v) ~= "function" and getmetatable(v) ~= ParamRef
          and not (type(v) == "table" and getmetatable(v) == nil) then
        error(string.format("lied.array: per-copy parameter %s must be a number, a function "
          .. "(i, p) or a list of values, got %s", k, describe_value(v)), 2)
      end
    end
    per = shallow_copy(per)
  end
  return setmetatable({ element = element, n = n, per = per, where = where(2) }, Array)
end
Array.__tostring = function(a) return "array of " .. tostring(a.element) end

-- lied.each(first, last, {"a[i].port", "b[i].port"}, ...): a connection
-- pattern for a connect list: one connection per pair and per i = first ..
-- last. lied.each({i = {first, last [, step]}, j = {...}, wrap = true},
-- pairs...): loops over several variables (nested in alphabetical order, the
-- first outermost), with steps, and indices that wrap around the array
-- sizes. Indices in the paths are sums of whole numbers and variables
-- times whole numbers ([i], [i+1], [2*i-1], [j-i+3]). Bounds are numbers,
-- lied.param "n" or functions of the model's parameters. Resolved in C: no
-- string per connection.
local function check_bound(v, what)
  if type(v) == "number" or getmetatable(v) == ParamRef or type(v) == "function" then return end
  error(string.format("lied.each: %s must be a number, lied.param or a function of the parameters, got %s",
    what, describe_value(v)), 3)
end
function lied.each(a1, ...)
  local loops, wrap, rest = {}, false, nil
  if type(a1) == "table" and getmetatable(a1) == nil and type(a1[1]) ~= "string" then
    local names = {}
    for k, v in pairs(a1) do
      if k == "wrap" then
        if type(v) ~= "boolean" then error("lied.each: wrap must be a boolean, got " .. describe_value(v), 2) end
        wrap = v
      else
        if not is_ident(k) or #k > 15 then
          error("lied.each: loop variables are identifiers of at most 15 characters, got " .. tostring(k), 2)
        end
        if type(v) ~= "table" or getmetatable(v) ~= nil or v[1] == nil or v[2] == nil then
          error(string.format("lied.each: loop %s must be {first, last [, step]}, got %s", k, describe_value(v)), 2)
        end
        names[#names + 1] = k
      end
    end
    if #names == 0 then error("lied.each: no loop variable (lied.each({i = {1, n}}, ...))", 2) end
    table.sort(names)
    for _, k in ipairs(names) do
      local v = a1[k]
      check_bound(v[1], k .. " first")
      check_bound(v[2], k .. " last")
      if v[3] ~= nil then check_bound(v[3], k .. " step") end
      loops[#loops + 1] = { name = k, first = v[1], last = v[2], step = v[3] or 1 }
    end
    rest = { ... }
  else
    local args = { ... }
    check_bound(a1, "first")
    check_bound(args[1], "last")
    loops[1] = { name = "i", first = a1, last = args[1], step = 1 }
    rest = { table.unpack(args, 2) }
  end
  if #rest == 0 then error("lied.each: no connection pairs {\"a[i].port\", \"b[i].port\"}", 2) end
  local pairs_ = {}
  for k, c in ipairs(rest) do
    if type(c) ~= "table" or getmetatable(c) ~= nil or type(c[1]) ~= "string" or type(c[2]) ~= "string"
        or c[3] ~= nil then
      error(string.format("lied.each: pair %d must be {\"a[i].port\", \"b[i].port\"}, got %s", k,
        describe_value(c)), 2)
    end
    for j = 1, 2 do
      if c[j] == "" or c[j]:find("%z") or #c[j] > 4096 then
        error(string.format("lied.each: pair %d: port path %d is empty, too long or holds a NUL", k, j), 2)
      end
    end
    pairs_[k] = { c[1], c[2] }
  end
  return setmetatable({ loops = loops, wrap = wrap, pairs = pairs_, where = where(2) }, Each)
end
Each.__tostring = function(e) return string.format("connection pattern (%d pairs)", #e.pairs) end

-- The file name of the caller of the caller (nil when not a file).
local function source_of(level)
  local info = debug.getinfo(level + 1, "S")
  local src = info and info.source
  return src and src:sub(1, 1) == "@" and src:sub(2) or nil
end

-- The site ("file:line") of each entry of a connect list: the declaration's
-- line, and where the file can be read, the line holding the entry's two
-- strings (searched in order from the declaration), so that an error about
-- one connection names its own line.
local function connect_sites(conns, site, source)
  local line0 = site and tonumber(site:match(":(%d+)$"))
  local text = false -- read each time: a file reloaded in the REPL may have changed
  if source and line0 and #conns > 0 then
    local f = io.open(source, "rb")
    text = f and f:read(1e7) or false
    if f then f:close() end
  end
  local pos, line = 1, line0
  if text then -- the start of the declaration's line
    for _ = 2, line0 do
      local nl = text:find("\n", pos, true)
      if not nl then text = false break end
      pos = nl + 1
    end
  end
  local function quoted(s) return "[\"']" .. s:gsub("%W", "%%%0") .. "[\"']" end
  for i, c in ipairs(conns) do
    local at
    if text and #c[1] < 200 and #c[2] < 200 then
      at = text:find(quoted(c[1]) .. "%s*,%s*" .. quoted(c[2]), pos)
    end
    if at then
      local _, nls = text:sub(pos, at - 1):gsub("\n", "")
      line, pos = line + nls, at + 1
      c.where = string.format("%s:%d", site:match("^(.*):%d+$"), line)
    else
      text = false -- lost the thread: the declaration's site for the rest
      c.where = site
    end
    c.index = i
  end
end

local reserved = { connect = true, experiment = true, parameters = true, ports = true,
                   doc = true }

-- The children of def (every key not reserved) into m.children: identifiers
-- naming components (a class alone is configured with {}), models or arrays.
-- Errors name the caller of lied.model's function (level 3 from here).
local function model_children(name, def, m)
  for k, v in pairs(def) do
    if not reserved[k] then
      if not is_ident(k) then
        error(string.format("model %s: child name %s is not an identifier", name, tostring(k)), 3)
      end
      local mt = getmetatable(v)
      if core.isclass(v) then v = v({}) ; mt = Component end
      if mt ~= Component and mt ~= ModelClass and mt ~= Array then
        error(string.format("model %s: child %s is %s, not a component, model or array",
          name, k, type(v)), 3)
      end
      m.children[k] = v
    end
  end
end

-- def.connect checked (bad raises with the model's site): a list whose
-- entries are lied.each patterns or pairs of port paths. Returns the pairs
-- (for their lines) and every entry in order.
local function model_connections(def, bad)
  local conns = def.connect or {}
  local nconn, xk = #conns, extra_key(conns)
  if xk ~= nil then
    bad("connect must be a list of {\"a.port\", \"b.port\"} pairs, got the key %s", show_key(xk))
  end
  local plain, all = {}, {}
  for i = 1, nconn do
    local c = conns[i]
    if getmetatable(c) == Each then
      all[#all + 1] = c
      goto next_conn
    end
    if type(c) ~= "table" or getmetatable(c) ~= nil or type(c[1]) ~= "string"
        or type(c[2]) ~= "string" then
      bad("connect[%d] must be {\"a.port\", \"b.port\"}, got %s", i, type(c))
    end
    for k in pairs(c) do
      if k ~= 1 and k ~= 2 then
        bad("connect[%d] must be a pair {\"a.port\", \"b.port\"}: it has an extra element %s",
          i, show_key(k))
      end
    end
    for j = 1, 2 do
      if c[j]:find("%z") then bad("connect[%d]: port path %d contains a NUL character", i, j) end
      if c[j] == "" then bad("connect[%d]: port path %d is empty", i, j) end
      if #c[j] > 4096 then bad("connect[%d]: port path %d is longer than 4096 characters", i, j) end
    end
    plain[#plain + 1] = { c[1], c[2] }
    all[#all + 1] = plain[#plain]
    ::next_conn::
  end
  return plain, all
end

-- lied.model "Name" { children..., connect = {...}, parameters = {...},
-- ports = {...}, experiment = {...}, doc = "..." }
function lied.model(name)
  if type(name) ~= "string" then error("lied.model expects a name: lied.model \"Name\" {...}", 2) end
  -- `return lied.model "X" {...}` is a tail call that hides the site from
  -- the inner function: take it here
  local site, site_source = where(2), source_of(2)
  return function(def)
    if type(def) ~= "table" then error("lied.model \"" .. name .. "\" expects a table", 2) end
    local inner, source = where(2), source_of(2)
    if not inner or inner:sub(1, 3) == "[C]" then inner, source = site, site_source end
    local function bad(fmt, ...)
      error(string.format("%smodel %s: " .. fmt, inner and (inner .. ": ") or "", name, ...), 0)
    end
    for _, key in ipairs { "connect", "ports", "parameters", "experiment" } do
      if def[key] ~= nil and (type(def[key]) ~= "table" or getmetatable(def[key]) ~= nil) then
        bad("%s must be a table, got %s", key, type(def[key]))
      end
    end
    if def.doc ~= nil and type(def.doc) ~= "string" then bad("doc must be a string, got %s", type(def.doc)) end
    -- the experiment's run options, checked here, where they are written (at a run
    -- their message named no file: "run: option stop must be a number, got string")
    local ok, why = pcall(core.check_run_options, def.experiment or {})
    if not ok then bad("experiment: %s", tostring(why)) end
    local m = { name = name, children = {}, connect = {}, ports = {}, parameters = {},
                experiment = shallow_copy(def.experiment), doc = def.doc, where = inner }
    model_children(name, def, m)
    local plain, all = model_connections(def, bad)
    connect_sites(plain, inner, source)
    m.connect = all
    for k, v in pairs(def.ports or {}) do
      -- a port's name is an identifier, its target "child.port" (or "child[i].port")
      -- of a child of this model: checked here, where it is declared (a misspelt one
      -- was taken and failed only where a connection used it)
      if type(k) == "string" and type(v) == "string" then
        if not is_ident(k) then bad("port name %s is not an identifier", k) end
        local child = v:match("^([%a_][%w_]*)[%.%[]")
        if not child then bad("port %s = %q: the target must be \"child.port\"", k, v) end
        if m.children[child] == nil then
          local names = {}
          for c in pairs(m.children) do names[#names + 1] = c end
          table.sort(names)
          local _, near = core.suggest(child, names)
          bad("port %s = %q: no child '%s'%s", k, v, child, near)
        end
      end
      m.ports[k] = v
    end
    for k, v in pairs(def.parameters or {}) do
      if not is_ident(k) then error("model " .. name .. ": bad parameter name " .. tostring(k), 2) end
      m.parameters[k] = v
    end
    return setmetatable(m, ModelClass)
  end
end

ModelClass.__index = {}
ModelClass.__tostring = function(m) return "model " .. m.name end
-- Calling a model class with overrides: parameters by name, children's
-- parameters as child = {param = value}, experiment = {...}.
ModelClass.__call = function(m, over)
  local c = shallow_copy(m)
  c.parameters = shallow_copy(m.parameters)
  c.children = shallow_copy(m.children)
  c.experiment = shallow_copy(m.experiment)
  if over ~= nil and (type(over) ~= "table" or getmetatable(over) ~= nil) then
    error(string.format("model %s: overrides must be a table {param = value}, got %s", m.name,
      type(over)), 2)
  end
  for k, v in pairs(over or {}) do
    if k == "experiment" then
      if type(v) ~= "table" or getmetatable(v) ~= nil then
        error(string.format("model %s: experiment must be a table, got %s", m.name, type(v)), 2)
      end
      for ek, ev in pairs(v) do c.experiment[ek] = ev end
      local ok, why = pcall(core.check_run_options, c.experiment)
      if not ok then error(string.format("model %s: experiment: %s", m.name, tostring(why)), 2) end
    elseif m.parameters[k] ~= nil then
      c.parameters[k] = v
    elseif m.children[k] ~= nil and type(v) == "table" and getmetatable(v) == nil then
      c.children[k] = m.children[k](v)
    else
      error(string.format("model %s has no parameter or child '%s'", m.name, tostring(k)), 2)
    end
  end
  c.where = where(2)
  return setmetatable(c, ModelClass)
end

function lied.ismodel(x) return getmetatable(x) == ModelClass end

-- ---- instantiation --------------------------------------------------------------

local function sorted_keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = k end
  table.sort(ks)
  return ks
end

-- A value that differs between the copies of arrays: f(idx) gives it for
-- the copy whose 1-based indices in the arrays on its path are idx.
local PerCopy = { __name = "lied.PerCopy" }
local function percopy(f) return setmetatable({ f = f }, PerCopy) end
local function is_percopy(v) return getmetatable(v) == PerCopy end

-- env with its per-copy entries evaluated for copy idx (env itself when it
-- has none).
local function env_at(env, idx)
  local r
  for k, v in pairs(env) do
    if is_percopy(v) then
      r = r or shallow_copy(env)
      r[k] = v.f(idx)
    end
  end
  return r or env
end

local touched = setmetatable({}, { __tostring = function() return "per-copy parameter" end })

-- Evaluate a parameter expression in the environment env (a table of the
-- enclosing model's resolved parameters). The result is a PerCopy when it
-- depends on a per-copy parameter.
local function evaluate(v, env, what)
  local mt = getmetatable(v)
  if mt == ParamRef then
    local r = env[v.name]
    if r == nil then
      local names = {}
      pcall(function() for k in pairs(env) do names[#names + 1] = tostring(k) end end)
      local _, near = core.suggest(tostring(v.name), names)
      error(string.format("%s: no model parameter '%s'%s", what, v.name, near), 0)
    end
    return r
  elseif type(v) == "function" then
    -- called with a view of env that stops at a per-copy entry: a function
    -- that reads none gives one value for every copy
    local view = setmetatable({}, {
      __index = function(_, k)
        local x = env[k]
        if is_percopy(x) then error(touched, 0) end
        return x
      end,
      __pairs = function() error(touched, 0) end })
    local ok, r = pcall(v, view)
    if not ok and r == touched then
      return percopy(function(idx)
        local ok2, r2 = pcall(v, env_at(env, idx))
        if not ok2 then error(string.format("%s: %s", what, core.errtext(r2)), 0) end
        return r2
      end)
    end
    if not ok then error(string.format("%s: %s", what, core.errtext(r)), 0) end
    return r
  elseif type(v) == "table" and mt == nil then
    local r, any = {}, false
    for i, x in ipairs(v) do
      r[i] = evaluate(x, env, what)
      any = any or is_percopy(r[i])
    end
    if any then
      return percopy(function(idx)
        local o = {}
        for i, x in ipairs(r) do o[i] = is_percopy(x) and x.f(idx) or x end
        return o
      end)
    end
    return r
  end
  return v
end

-- The value of a per-copy entry of lied.array for a consumer (a component
-- or a model) at `level` arrays deep: d = {raw = the entry, n = the array's
-- size, level = the array's depth, penv = the enclosing model's parameters,
-- what}. A function gets the consumer's indices (one per array level) and
-- penv; a list is indexed by the array's own index.
local function percopy_at(d, level)
  local v = d.raw
  if type(v) == "number" then return v end
  if getmetatable(v) == ParamRef then return evaluate(v, d.penv, d.what) end
  if type(v) == "function" then
    local pc = percopy(function(idx)
      local args = { table.unpack(idx, 1, level) }
      args[level + 1] = env_at(d.penv, idx)
      local ok, r = pcall(v, table.unpack(args, 1, level + 1))
      if not ok then
        error(string.format("%s (copy [%s]): %s", d.what, table.concat(idx, "][", 1, level),
          core.errtext(r)), 0)
      end
      return r
    end)
    local fixed = true
    for _, x in pairs(d.penv) do fixed = fixed and not is_percopy(x) end
    if level == 1 and fixed then
      -- one index and fixed parameters (the common case): f1(i), no tables per call
      local penv = d.penv
      pc.f1 = function(i)
        local ok, r = pcall(v, i, penv)
        if not ok then error(string.format("%s (copy [%d]): %s", d.what, i, core.errtext(r)), 0) end
        return r
      end
    end
    return pc
  end
  local xk = extra_key(v) -- docs/robustness.md: such tables are refused (issue 47)
  if xk ~= nil then
    error(string.format("%s: a list of per-copy values takes the keys 1..%d only, got the key %s",
      d.what, #v, show_key(xk)), 0)
  end
  if #v ~= d.n then
    error(string.format("%s: a list of per-copy values needs %d values (one per copy), got %d",
      d.what, d.n, #v), 0)
  end
  local pc = percopy(function(idx) return v[idx[d.level]] end)
  if d.level == 1 then pc.f1 = function(i) return v[i] end end
  return pc
end

-- An indexed override key "crab[7].body2.m": the key without its indices
-- when its components match segs (the path's {name, array, count}), and
-- the index of each array level (0: every copy); or nil when it names
-- another path. Errors for indices on what is not an array, out of range,
-- or not whole numbers.
local function indexed_key(key, chain, pname_ok)
  local segs = {} -- chain: the innermost level, linked to the outer ones by prev
  for sg in function(_, c) if c == nil then return chain end return c.prev end do table.insert(segs, 1, sg) end
  -- split at the dots outside paired brackets ("c[1.5].m": 2 parts; the dots
  -- of "c[2.m" split, so that its index is reported)
  local masked = key:gsub("%b[]", function(b) return (b:gsub("%.", "\0")) end)
  local parts = {}
  for part in (masked .. "."):gmatch("([^.]*)%.") do parts[#parts + 1] = (part:gsub("%z", ".")) end
  if #parts ~= #segs + 1 then return nil end
  local idx = {}
  for k, sg in ipairs(segs) do
    local name, br = parts[k]:match("^([%a_][%w_]*)(.*)$")
    if name ~= sg.name then return nil end
    if br ~= "" then
      local txt = br:match("^%[(.-)%]$")
      local digits = txt and txt:match("^%d+$")
      if not digits then
        error(string.format("--set %s: bad index %s (indices are whole numbers from 1)", key, br), 0)
      end
      if not sg.array then error(string.format("--set %s: '%s' is not an array", key, name), 0) end
      local i = math.tointeger(tonumber(digits)) -- nil beyond 2^63
      if not i or i < 1 or i > sg.count then
        error(string.format("--set %s: index %s out of range: %s has %d cop%s (indices from 1)",
          key, digits, name, sg.count, sg.count == 1 and "y" or "ies"), 0)
      end
      idx[#idx + 1] = math.tointeger(i)
    elseif sg.array then
      idx[#idx + 1] = 0
    end
  end
  local last = parts[#parts]
  if not is_ident(last) or not pname_ok(last) then return nil end
  return last, idx
end

-- ---- flattening: a model class into the spec list lied.core.build takes -----------
-- The functions below share one state F (flatten makes it): overrides, slice,
-- used (the override keys that named something), class_params (class -> its
-- parameter names), known (every settable path, for suggestions: prefix and
-- names per spec, the paths made only when an override names none: a model
-- of 100,000s of components has millions), specs (the list made), depth,
-- slice_first (the global index of this rank's first copy, minus 1), indexed
-- (the sorted indexed override keys, "crab[7].body2.m").

-- The parameter names of a C class, {list = {...}, name = true, ...} (the
-- binding builds the list at each access: kept per class).
local function class_param_names(F, class)
  local has = F.class_params[class]
  if not has then
    has = { list = {} }
    for _, p in ipairs(class.params) do
      has.list[#has.list + 1] = p.name
      has[p.name] = true
    end
    F.class_params[class] = has
  end
  return has
end

-- Parameter k of the component being flattened (c: its params, copies) takes
-- r: a number, or a per-copy value (a function of the copy's indices, the
-- global ones in a slice); level: the arrays on its path.
local function put_param(F, c, k, r, what, level)
  if not is_percopy(r) then
    c.params[k] = check_number(r, what)
    if c.copies then c.copies[k] = nil end
    return
  end
  c.copies = c.copies or {}
  local off = F.slice_first
  if r.f1 and level == 1 then -- one index: no table per copy
    local f1 = r.f1
    c.copies[k] = function(i)
      local x = f1(i + off)
      if type(x) == "number" then return x end
      return copy_number(x, what, i + off)
    end
  elseif off > 0 then -- a slice: the global index of the top level
    c.copies[k] = function(i, ...)
      local x = r.f({ i + off, ... })
      if type(x) == "number" then return x end
      return copy_number(x, what, i + off, ...)
    end
  else
    c.copies[k] = function(...)
      local x = r.f({ ... })
      if type(x) == "number" then return x end
      return copy_number(x, what, ...)
    end
  end
  c.params[k] = nil
end

-- The overrides that name a parameter of the component of spec s (prefix
-- pre, parameter names has, path segs): plain keys, then indexed ones (set
-- per copy: s.at; in a slice only this rank's copies).
local function component_overrides(F, s, c, has, pre, segs, level)
  local overrides, slice = F.overrides, F.slice
  if next(overrides) then
    for key, v in pairs(overrides) do
      if key:sub(1, #pre) == pre and is_ident(key:sub(#pre + 1)) then
        put_param(F, c, key:sub(#pre + 1), v, key, level)
        F.used[key] = true
      end
    end
  end
  for _, key in ipairs(F.indexed) do
    local k, idx = indexed_key(key, segs, function(x) return has[x] and x ~= "list" end)
    if k then
      local v = check_number(overrides[key], key)
      local mine = true
      if slice and idx[1] ~= 0 then -- a copy of another rank's slice: set there
        idx[1] = idx[1] - F.slice_first
        mine = idx[1] >= 1 and idx[1] <= slice.count
      end
      if mine then
        s.at = s.at or {}
        s.at[#s.at + 1] = { name = k, idx = idx, value = v }
      end
      F.used[key] = true
    end
  end
end

-- A component (a configured C class) as spec s: its class, parameters,
-- per-copy values (per; marked in per_used) and overrides.
local function flatten_component(F, s, decl, env, pre, per, segs, level, per_used)
  s.class = decl.class
  local has = class_param_names(F, decl.class)
  F.known[#F.known + 1] = pre
  F.known[#F.known + 1] = has.list
  local c = { params = {} }
  s.params = c.params
  for k, v in pairs(decl.params) do
    if type(v) == "number" then
      c.params[k] = v
    else -- (named with the declaration's file:line: a function's own error or value)
      local what = (decl.where and (decl.where .. ": ") or "") .. pre .. k
      put_param(F, c, k, evaluate(v, env, what), what, level)
    end
  end
  if per then
    for k, v in pairs(per) do
      if has[k] and k ~= "list" then
        put_param(F, c, k, percopy_at(v, level), pre .. k, level)
        per_used[k] = true
      end
    end
  end
  component_overrides(F, s, c, has, pre, segs, level)
  if c.copies and next(c.copies) then s.copies = c.copies end
end

-- The parameters of a composite: evaluated in env, per-copy values (per),
-- overrides, indexed overrides (a per-copy value that is the override at
-- the copies it names).
local function composite_params(F, decl, env, pre, per, segs, level, per_used)
  local params = {}
  local at = decl.where and (decl.where .. ": ") or ""
  for k, v in pairs(decl.parameters) do params[k] = evaluate(v, env, at .. pre .. k) end
  if next(decl.parameters) then
    F.known[#F.known + 1] = pre
    F.known[#F.known + 1] = sorted_keys(decl.parameters)
  end
  for k, v in pairs(per or {}) do
    if decl.parameters[k] ~= nil then
      params[k] = percopy_at(v, level)
      per_used[k] = true
    end
  end
  for key, v in pairs(F.overrides) do
    local rest = key:sub(#pre + 1)
    if key:sub(1, #pre) == pre and is_ident(rest) and decl.parameters[rest] ~= nil then
      params[rest] = check_number(v, key)
      F.used[key] = true
    end
  end
  for _, key in ipairs(F.indexed) do
    local k, idx = indexed_key(key, segs, function(x) return decl.parameters[x] ~= nil end)
    if k then
      local base, v = params[k], check_number(F.overrides[key], key)
      params[k] = percopy(function(at)
        for j, i in ipairs(idx) do
          if i ~= 0 and at[j] ~= i then
            return is_percopy(base) and base.f(at) or base
          end
        end
        return v
      end)
      F.used[key] = true
    end
  end
  return params
end

-- The connections of a composite: lied.each patterns with their loops'
-- bounds evaluated in params (whole numbers), the others as declared.
local function composite_connect(decl, params, pre)
  local list = {}
  for _, c in ipairs(decl.connect) do
    if getmetatable(c) == Each then
      local at = c.where and (c.where .. ": ") or ""
      local loops = {}
      for k, l in ipairs(c.loops) do
        local function bound(v, what)
          local r = evaluate(v, params, at .. pre .. "lied.each " .. l.name .. " " .. what)
          if math.type(r) ~= "integer" and not (type(r) == "number" and r == math.floor(r) and math.abs(r) < 2^53) then
            error(string.format("%s%slied.each: loop %s: %s must be a whole number, got %s",
              at, pre, l.name, what, is_percopy(r) and "a per-copy value" or describe_value(r)), 0)
          end
          return math.tointeger(r)
        end
        loops[k] = { name = l.name, first = bound(l.first, "first"), last = bound(l.last, "last"),
                     step = bound(l.step, "step") }
      end
      for _, p in ipairs(c.pairs) do
        list[#list + 1] = { p[1], p[2], where = c.where, each = { loops = loops, wrap = c.wrap } }
      end
    else
      list[#list + 1] = c
    end
  end
  return list
end

-- The size of array child cname (at path cpath): a whole number, the same
-- for every copy.
local function array_size(child, params, cpath)
  local n = evaluate(child.n, params, cpath .. " (array size)")
  local at = child.where and (child.where .. ": ") or ""
  if is_percopy(n) then
    error(string.format("%s%s: an array size cannot differ between copies", at, cpath), 0)
  end
  return check_size(n, at .. cpath)
end

-- Coupled arrays under mpirun (the top composite of a slice): this rank's
-- ranges of every array and its connections (lied/halo.lua); the plan.
local function coupled_plan(F, s, decl, params, pre)
  local lens = {}
  for cname, child in pairs(decl.children) do lens[cname] = array_size(child, params, pre .. cname) end
  local plan = halo.plan(decl.name, lens, s.connect, F.slice, sorted_keys)
  s.connect = halo.connections(s.connect, plan, decl.name)
  F.slice.global, F.slice.plan = plan.N, plan
  return plan
end

local flatten_decl -- (below) one declaration, recursively

-- Array child cname of the composite of spec id: its size, this rank's
-- share under mpirun (plan: coupled arrays; else the ensemble's array), the
-- element's per-copy values, then the element flattened.
local function flatten_array(F, id, cname, child, params, cpath, cper, segs, level, plan)
  local slice = F.slice
  local n = array_size(child, params, cpath)
  local count = n
  if plan then -- coupled arrays: this rank's copies and ghosts
    count = plan.arrays[cname].count
    F.slice_first = plan.arrays[cname].off
    slice.first, slice.count = F.slice_first, count
  elseif slice and id == 1 then -- the ensemble's array: this rank's share
    if n < slice.size then
      error(string.format("%s: %d copies for %d processes (mpirun -np): at least one copy per process",
        cpath, n, slice.size), 0)
    end
    F.slice_first = n * slice.rank // slice.size
    count = n * (slice.rank + 1) // slice.size - F.slice_first
    slice.first, slice.count, slice.global = F.slice_first, count, n
  end
  for k, v in pairs(child.per or {}) do
    if cper[k] == nil then
      cper[k] = { raw = v, n = n, level = level + 1, penv = params,
                  what = (child.where and (child.where .. ": ") or "") .. cpath .. "." .. k }
    end
  end
  local cid = #F.specs + 1
  flatten_decl(F, child.element, cname, id, count, true, params, cpath, cper,
    { prev = segs, name = cname, array = true, count = n }, level + 1, child.where)
  if plan then
    local pa = plan.arrays[cname]
    F.specs[cid].slice_first, F.specs[cid].slice_global = F.slice_first, n
    F.specs[cid].own_first, F.specs[cid].own_count = pa.own_first, pa.own_count
  elseif slice and id == 1 then
    F.specs[id + 1].slice_first, F.specs[id + 1].slice_global = F.slice_first, n
  end
end

-- A composite model as spec s (id): its parameters, connections, ports,
-- then its children in name order, with their per-copy values.
local function flatten_composite(F, s, id, decl, env, pre, per, segs, level, per_site, per_used)
  local params = composite_params(F, decl, env, pre, per, segs, level, per_used)
  s.connect = composite_connect(decl, params, pre)
  s.ports = decl.ports
  local plan
  if F.slice and F.slice.coupled and id == 1 then plan = coupled_plan(F, s, decl, params, pre) end
  -- per-copy parameters of the children: {child = {rest = value}}
  local child_per = {}
  for k, v in pairs(per or {}) do
    local c, rest = k:match("^([%a_][%w_]*)%.(.+)$")
    if c and decl.children[c] ~= nil then
      child_per[c] = child_per[c] or {}
      child_per[c][rest] = v
      per_used[k] = true
    end
  end
  for _, cname in ipairs(sorted_keys(decl.children)) do
    local child = decl.children[cname]
    local cpath = pre .. cname
    if getmetatable(child) == Array then
      flatten_array(F, id, cname, child, params, cpath, child_per[cname] or {}, segs, level, plan)
    else
      flatten_decl(F, child, cname, id, 1, false, params, cpath, child_per[cname],
        { prev = segs, name = cname, array = false, count = 1 }, level, per_site)
    end
  end
end

-- Every per-copy parameter given for decl (per) must have named something.
local function check_per_used(decl, path, per, per_used, per_site)
  for k in pairs(per or {}) do
    if not per_used[k] then
      local names = {}
      if getmetatable(decl) == Component then
        for _, p in ipairs(decl.class.params) do names[#names + 1] = p.name end
      else
        for pk in pairs(decl.parameters) do names[#names + 1] = pk end
      end
      -- (parameters only: a child's name is no parameter to suggest)
      local _, near = core.suggest(k, names)
      local owner = getmetatable(decl) == Component and decl.class.name or decl.name
      local site = per_site and (per_site .. ": ") or ""
      if getmetatable(decl) ~= Component and decl.children[k] ~= nil then -- a child
        error(string.format("%s%s: per-copy parameter '%s': '%s' is a component of %s, not a " ..
          "parameter (a parameter of it is written \"%s.name\")", site, path, k, k, owner, k), 0)
      end
      error(string.format("%s%s: per-copy parameter '%s': %s has no such parameter%s",
        site, path, k, owner, near), 0)
    end
  end
end

-- One declaration as a spec (and its children after it). decl: the
-- declaration; per: its per-copy parameters ({relative path = entry of
-- lied.array}); segs: {name, array, count, prev} of the innermost level of
-- the path, prev the one outside; level: the arrays on it.
flatten_decl = function(F, decl, name, parent, count, is_array, env, path, per, segs, level, per_site)
  F.depth = F.depth + 1
  if F.depth > 100 then
    error(string.format("%s%s: models nested more than 100 levels deep (is a model its own child?)",
      decl.where and (decl.where .. ": ") or "", path:sub(1, 200)), 0)
  end
  local s = { name = name, parent = parent, count = count, array = is_array, where = decl.where }
  F.specs[#F.specs + 1] = s
  local id = #F.specs
  local pre = path == "" and "" or path .. "."
  local per_used = {}
  if getmetatable(decl) == Component then
    flatten_component(F, s, decl, env, pre, per, segs, level, per_used)
  else
    flatten_composite(F, s, id, decl, env, pre, per, segs, level, per_site, per_used)
  end
  check_per_used(decl, path, per, per_used, per_site)
  F.depth = F.depth - 1
end

-- The overrides: a table of string keys.
local function check_overrides(overrides)
  if type(overrides) ~= "table" then
    error("overrides must be a table {path = value}, got " .. type(overrides), 0)
  end
  for k in pairs(overrides) do
    if type(k) ~= "string" then
      error("overrides: parameter paths must be strings, got " .. type(k) .. " " .. tostring(k), 0)
    end
  end
end

-- Every override must have named a parameter: else an error with the
-- closest settable path.
local function check_overrides_used(F, model)
  for key in pairs(F.overrides) do
    if not F.used[key] then
      local paths = {}
      for q = 1, #F.known, 2 do
        for _, pn in ipairs(F.known[q + 1]) do paths[#paths + 1] = F.known[q] .. pn end
      end
      local _, near = core.suggest(key:gsub("%[[^%]]*%]", ""), paths)
      error(string.format("--set %s: no such parameter in model %s%s", key, model.name, near), 0)
    end
  end
end

-- Flatten a model class into the spec list lied.core.build takes.
-- overrides: { ["n"] = 1000, ["crab.body1.m"] = 2 } (from --set).
--
-- slice = {rank = r, size = P} (lied run under mpirun, docs/distributed.md):
-- the model must be an ensemble, one array of independent copies at the top
-- level and nothing else; the spec list holds only this rank's contiguous
-- share of the copies, whose per-copy parameters and indexed overrides see
-- the global indices.
local function flatten(model, overrides, slice)
  overrides = overrides or {}
  check_overrides(overrides)
  local F = { overrides = overrides, slice = slice, used = {}, class_params = {}, known = {},
              specs = {}, depth = 0, slice_first = 0, indexed = {} }
  for key in pairs(overrides) do
    if key:find("[", 1, true) then F.indexed[#F.indexed + 1] = key end
  end
  table.sort(F.indexed)
  if getmetatable(model) == Component then
    -- a single component as a model: wrap it
    model = lied.model(model.class.name) { [model.class.name:lower()] = model }
  end
  if getmetatable(model) ~= ModelClass then
    error("expected a model (lied.model \"Name\" {...}), got " .. tostring(model), 0)
  end
  if slice then
    local nch, arr = 0, nil
    for _, c in pairs(model.children) do nch, arr = nch + 1, c end
    if nch ~= 1 or getmetatable(arr) ~= Array or #model.connect > 0 then
      -- not an ensemble: coupled arrays (lied/halo.lua), or an error
      halo.check(model, slice, Array, sorted_keys)
      slice.coupled = true
    end
  end
  flatten_decl(F, model, model.name, 0, 1, false, {}, "", nil, nil, 0)
  check_overrides_used(F, model)
  return F.specs
end
lied.flatten = flatten

-- lied.build(model, overrides) -> a built model (C userdata).
-- slice: see flatten (lied run under mpirun). schedule: nil, or the plain
-- paths of the scheduler for comparisons ({sparse = false, skew = false,
-- window = false, replicate = false}; skew_any = true: the skew on short
-- arrays too, lied run --check; docs/lua-api.md).
local warned = {} -- the warnings printed (once each per process)
function lied.build(model, overrides, slice, schedule)
  local specs = flatten(model, overrides, slice)
  local built = core.build(specs, schedule, overrides)
  -- dialectic contacts that change impacts much (docs/dialectic.md, "Impacts")
  for _, w in ipairs(require("lied.impacts").warnings(specs)) do
    if not warned[w] then
      warned[w] = true
      io.stderr:write("lied: warning: " .. w .. "\n")
    end
  end
  return built
end

-- ---- simulation ------------------------------------------------------------------

-- lied.simulate(model, opts) -> simulation; sim:run() -> result, stats.
-- opts: the run options (lied.core.run_options; model:run checks them),
-- set = {overrides}, schedule = {...} (lied.build).
function lied.simulate(model, opts)
  opts = opts or {}
  if type(opts) ~= "table" then error("lied.simulate(model, opts): opts must be a table, got " .. type(opts), 2) end
  local schedule = opts.schedule
  if schedule ~= nil then
    opts = shallow_copy(opts)
    opts.schedule = nil
  end
  core.check_run_options(opts) -- checked when given, not at the first run
  local exp = shallow_copy(getmetatable(model) == ModelClass and model.experiment or {})
  for k, v in pairs(opts) do exp[k] = v end
  local built = lied.build(model, opts.set, nil, schedule)
  return setmetatable({ model = built, class = model, opts = exp, user_vars = opts.vars }, Simulation)
end

function Simulation:run(more)
  local o = shallow_copy(self.opts)
  for k, v in pairs(more or {}) do o[k] = v end
  local user_vars = self.user_vars ~= nil and self.user_vars or (more or {}).vars
  local res, stats, err = lied.run_experiment(self.class, self.model, user_vars, o)
  self.result, self.stats = res, stats
  if err then error(err, 0) end
  return res, stats
end
Simulation.__tostring = function(s)
  return string.format("simulation of %s (%s)", tostring(s.class),
    s.result and "finished" or "not run")
end

-- ---- analysis (lua/lied/analysis.lua, docs/analysis.md) -------------------------

-- lied.steady(model, opts), lied.linearize(model, opts), lied.value(res,
-- name, t), lied.compare(r1, r2), lied.sweep(model, spec): see lied.analysis.
for _, f in ipairs { "steady", "linearize", "value", "compare", "sweep" } do
  lied[f] = function(...) return require("lied.analysis")[f](...) end
end
-- lied.check(model, opts): the fast paths against the plain ones, bit for
-- bit (lua/lied/check.lua, lied run --check).
function lied.check(...) return require("lied.check").run(...) end

-- ---- scripts -------------------------------------------------------------------

-- lied.plot(result, names, opts): see lied.plot module.
function lied.plot(result, names, opts)
  local ok, err = require("lied.plot").result(result, names, opts)
  if not ok then error("plot: " .. tostring(err), 2) end -- the caller's file:line
  return true
end

-- Model files end with
--   lied.main(Model, {plot = {...}, file = ...})
--   return Model
-- Loaded by `lied run` (or by another script) they just return the model; run
-- as the main script (`lied FILE.lua [plot.png]`) they also simulate it with
-- its experiment and plot the result.
function lied.main(model, opts)
  if debug.getinfo(1, "t").istailcall then
    error("call lied.main(Model, opts) as a statement, then 'return Model'", 2)
  end
  local info = debug.getinfo(2, "S")
  if lied.script and info and info.source == "@" .. lied.script then
    local site = where(2) -- the model file's lied.main: its plot's errors name it
    opts = opts or {}
    local pt = type(opts) == "table" and type(opts.plot) or "table"
    if type(opts) ~= "table" or not (pt == "nil" or pt == "string" or pt == "table" or pt == "function") then
      error(string.format("%s: lied.main(Model, opts): %s", site, type(opts) ~= "table" and
        "opts must be a table, got " .. type(opts) or "plot must be a name, a list of names, " ..
        "{panels = ...} or a function, got " .. pt), 0)
    end
    -- the command line: `lied FILE.lua [PLOT] [run options] [--set P=V]`
    local cli = require "lied.cli"
    local o, sets, plotfile = cli.main_args(arg, lied.script)
    local file = opts.file or plotfile
    if file then -- before simulating: a plot file that cannot be written is an error now
      local ok, why, kind = require("lied.plot").check_file(file)
      if not ok then error(core.error(kind, why), 0) end
    end
    local run = {}
    for k, v in pairs(opts.run or {}) do run[k] = v end
    for k, v in pairs(o) do run[k] = v end
    -- the plot reads the rows from memory, also with --out none (which keeps none)
    if run.memory == nil then run.memory = true end
    if next(sets) then
      run.set = run.set or {}
      for k, v in pairs(sets) do run.set[k] = v end
    end
    local exp = {}
    for k, v in pairs(model.experiment or {}) do exp[k] = v end
    for k, v in pairs(run) do exp[k] = v end
    cli.check_used(o, exp, "lied " .. lied.script)
    local sim = lied.simulate(model, run)
    local res, stats = sim:run()
    io.stdout:write(string.format("%s: %s, %d steps, %d evaluations, %.3f s\n", model.name,
      sim.opts.solver or "rk4", stats.steps, stats.rhs, stats.wall))
    -- plot = {"a", "b"} or {panels = {...}, layout = {2, 1}, y2 = {...}, units = {...}}
    local popts = { file = file, title = opts.title or model.name }
    for k, v in pairs(type(opts.plot) == "table" and opts.plot or {}) do
      if math.type(k) ~= "integer" then popts[k] = v end
    end
    if type(opts.plot) == "function" then -- the model file draws its own plot
      opts.plot(res, popts)
    else
      local ok, err = require("lied.plot").result(res, opts.plot, popts)
      if not ok then -- a variable the plot names that --vars did not record, say
        error(string.format("%s: plot: %s%s", site, tostring(err), run.vars and string.format(
          " (the model's plot names it; vars = %q does not record it: record it too, or leave "
          .. "vars out)", run.vars) or ""), 0)
      end
    end
    if file then io.stdout:write("plot written to ", file, "\n") end
  end
  return model
end

-- ---- documentation ----------------------------------------------------------------

-- Text describing a class, component, or model.
function lied.describe(x)
  local lines = {}
  local cls = core.isclass(x) and x or (getmetatable(x) == Component and x.class)
  if cls then
    lines[#lines + 1] = string.format("%s.%s: %s", cls.domain, cls.name, cls.doc)
    local ps = cls.params
    if #ps > 0 then lines[#lines + 1] = "parameters:" end
    for _, p in ipairs(ps) do
      local range = ""
      local lo = p.min > -math.huge and string.format("%s %g", p.min_open and ">" or ">=", p.min)
      local hi = p.max < math.huge and string.format("%s %g", p.max_open and "<" or "<=", p.max)
      if lo or hi then
        range = " (" .. (lo and hi and (lo .. " and " .. hi) or lo or hi) .. ")"
      end
      local def = p.default
      if p.table then range, def = "", p.table == 2 and "(map)" or "(table)" end
      if type(def) == "table" then
        local t = {}
        for i, v in ipairs(def) do t[i] = tostring(v) end
        def = "{" .. table.concat(t, ", ") .. "}"
      end
      lines[#lines + 1] = string.format("  %-10s = %-8s [%s] %s%s", p.name, tostring(def),
        p.unit, p.doc, range)
    end
    return table.concat(lines, "\n")
  elseif getmetatable(x) == ModelClass then
    lines[#lines + 1] = "model " .. x.name .. (x.doc and (": " .. x.doc) or "")
    for _, k in ipairs(sorted_keys(x.parameters)) do
      lines[#lines + 1] = string.format("  parameter %s = %s", k, tostring(x.parameters[k]))
    end
    for _, k in ipairs(sorted_keys(x.children)) do
      lines[#lines + 1] = string.format("  %s: %s", k, tostring(x.children[k]))
    end
    return table.concat(lines, "\n")
  end
  return tostring(x)
end

return lied
