-- lied.repl: the REPL's commands (load, run, plot, replot, vars, set, info,
-- save, help) and its tab completion. Commands are plain Lua functions that
-- default to the current model and the last result (docs/repl.md).
local lied = require "lied"
local cli = require "lied.cli"
local plotlib = require "lied.plot"

local repl = {}

-- Session state: the current model (class, file, overrides, built model),
-- every result of the session with a label, the last plot request.
local S = { overrides = {}, experiment = {} }
local results, labels = {}, {}
repl.results = results
repl.labels = labels

local function out(...) io.stdout:write(...) end

local function sorted_keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = k end
  table.sort(ks, function(a, b) return tostring(a) < tostring(b) end)
  return ks
end

-- The run options (lied.core.run_options): set() takes them as experiment
-- settings, completion offers them in run{...} and set("...").
local run_keys, run_names = {}, {}
for _, o in ipairs(lied.core.run_options) do
  if o.name ~= "set" then run_keys[o.name] = true; run_names[#run_names + 1] = o.name end
end

local function fmt_value(v)
  if type(v) == "number" then return string.format("%.10g", v) end
  if type(v) == "table" then
    local t = {}
    for i, x in ipairs(v) do t[i] = fmt_value(x) end
    return "{" .. table.concat(t, ", ") .. "}"
  end
  return tostring(v)
end

local function overrides_text()
  local t = {}
  for _, k in ipairs(sorted_keys(S.overrides)) do t[#t + 1] = k .. "=" .. fmt_value(S.overrides[k]) end
  for _, k in ipairs(sorted_keys(S.experiment)) do t[#t + 1] = k .. "=" .. fmt_value(S.experiment[k]) end
  return table.concat(t, " ")
end

local function need_model()
  if not S.model then error("no current model: load(\"model.lua\") first", 3) end
  return S.model
end

-- The built current model (rebuilt after set()).
local function built()
  need_model()
  if not S.built then S.built = lied.build(S.model, S.overrides) end
  return S.built
end

local function is_file_arg(x)
  if type(x) ~= "string" then return false end
  if x:match("%.lua$") then return true end
  local f = io.open(x, "r")
  if f then f:close() end
  return f ~= nil
end

-- ---- commands ---------------------------------------------------------------

local builtin_load = load

-- load(file): make the model the file returns the current model. With a Lua
-- chunk (a function, or a string that is not a file) it is Lua's load.
function repl.load(file, ...)
  if not is_file_arg(file) then return builtin_load(file, ...) end
  local model = cli.load_model(file)
  S.model, S.file, S.overrides, S.experiment, S.built = model, file, {}, {}, nil
  local info = built():info()
  out(string.format("%s: model %s, %d components, %d states\n", file, model.name,
    info.components, info.states))
  return model
end

-- The options of a run: experiment, session overrides, then opts.
local function run_options(opts)
  local o = {}
  for k, v in pairs(S.model.experiment or {}) do o[k] = v end
  for k, v in pairs(S.experiment) do o[k] = v end
  for k, v in pairs(opts or {}) do if k ~= "set" then o[k] = v end end
  if o.memory == nil then o.memory = true end
  return o
end

-- run([model | file], [opts]): simulate the current model (or make the given
-- one current first); returns the result, which is also kept in results[i].
function repl.run(x, opts)
  if type(x) == "table" and getmetatable(x) == nil and opts == nil then x, opts = nil, x end
  if is_file_arg(x) then
    repl.load(x)
  elseif lied.ismodel(x) then
    S.model, S.file, S.overrides, S.experiment, S.built = x, nil, {}, {}, nil
  elseif x ~= nil then
    error("run(model or file, opts): got " .. type(x), 2)
  end
  need_model()
  local model = built()
  if opts and opts.set then
    local ov = {}
    for k, v in pairs(S.overrides) do ov[k] = v end
    for k, v in pairs(opts.set) do ov[k] = v end
    model = lied.build(S.model, ov)
  end
  local o = run_options(opts)
  local res, stats, err = model:run(o)
  local i = #results + 1
  results[i] = res
  local extra = overrides_text()
  if opts and opts.set then
    local t = {}
    for _, k in ipairs(sorted_keys(opts.set)) do t[#t + 1] = k .. "=" .. fmt_value(opts.set[k]) end
    extra = (extra ~= "" and extra .. " " or "") .. table.concat(t, " ")
  end
  labels[i] = string.format("run %d%s", i, extra ~= "" and (": " .. extra) or "")
  if err then
    out(string.format("run %d: %s failed at t = %.10g; the %d rows before are in results[%d]\n",
      i, S.model.name, stats.t_end, res:nrows(), i))
    error(err, 0)
  end
  out(string.format("run %d: %s to t = %.10g%s, %d steps, %d rows, %.3g s -> results[%d]\n",
    i, S.model.name, stats.t_end, stats.interrupted and " (interrupted: rows so far kept)" or "",
    stats.steps, res:nrows(), stats.wall, i))
  return res
end

-- set(path, value): override a parameter of the current model (like --set)
-- and rebuild it; also experiment settings (stop, dt, ...). value nil
-- removes the override. set{path = value, ...} sets several.
function repl.set(path, value)
  need_model()
  local t = type(path) == "table" and path or { [path] = value }
  if type(path) ~= "table" and type(path) ~= "string" then
    error("set(path, value): path must be a string such as \"p1.L\"", 2)
  end
  local old, oldexp = {}, {}
  for k, v in pairs(S.overrides) do old[k] = v end
  for k, v in pairs(S.experiment) do oldexp[k] = v end
  for k, v in pairs(t) do
    if run_keys[k] and S.model.parameters[k] == nil then
      S.experiment[k] = v
    else
      if v ~= nil and type(v) ~= "number" and type(v) ~= "table" and type(v) ~= "boolean" then
        error(string.format("set(%q, value): value must be a number, got %s", k, type(v)), 2)
      end
      S.overrides[k] = v
    end
  end
  local ok, b = pcall(lied.build, S.model, S.overrides)
  if not ok then
    S.overrides, S.experiment = old, oldexp
    -- a misspelt run option rather than a parameter?
    for k in pairs(t) do
      local best, near = lied.core.suggest(tostring(k), run_names)
      if best and type(k) == "string" and not k:find(".", 1, true) then
        error(lied.core.error("usage", string.format("set: no parameter or run option '%s'%s", k, near)), 2)
      end
    end
    error(b, 0)
  end
  S.built = b
  out(string.format("%s: %s\n", S.model.name, overrides_text() ~= "" and overrides_text()
    or "no overrides"))
end

-- The result and its label for plot/save: a Result, an index, or the last.
local function pick_result(r)
  if r == nil then
    if #results == 0 then error("no result yet: run() first", 3) end
    return results[#results], labels[#results]
  end
  if math.type(r) == "integer" then
    if not results[r] then error("no results[" .. r .. "]", 3) end
    return results[r], labels[r]
  end
  for i, x in ipairs(results) do if x == r then return x, labels[i] end end
  return r, "result"
end

local function is_result(x)
  return type(x) == "userdata" and tostring(x):match("^result") ~= nil and x.column ~= nil
end

-- Normalise plot arguments into a request table.
local function plot_request(...)
  local args = table.pack(...)
  local req = {}
  local i = 1
  if is_result(args[1]) then req.result = args[1]; i = 2 end
  for k = i, args.n do
    local a = args[k]
    if type(a) == "string" then
      req[#req + 1] = a
    elseif type(a) == "table" and getmetatable(a) == nil then
      for kk, v in pairs(a) do
        if math.type(kk) == "integer" then req[#req + 1] = v else req[kk] = v end
      end
    elseif a ~= nil then
      error("plot: unexpected argument " .. tostring(a), 3)
    end
  end
  return req
end

-- The runs a request shows: runs = "all" | index | {indices}; default the
-- given result or the last one.
local function request_runs(req)
  if req.result then return { { pick_result(req.result) } } end
  local idx
  if req.runs == "all" then
    idx = {}
    for k = 1, #results do idx[k] = k end
  elseif math.type(req.runs) == "integer" then
    idx = { req.runs }
  elseif type(req.runs) == "table" then
    idx = req.runs
  elseif req.runs == nil then
    idx = { #results }
  else
    error("plot: runs must be \"all\", an index or a list of indices", 3)
  end
  if #results == 0 then error("no result yet: run() first", 3) end
  local rs = {}
  for _, k in ipairs(idx) do rs[#rs + 1] = { pick_result(k) } end
  return rs
end

local function draw(req)
  local runs = request_runs(req)
  local first = runs[1][1]
  local names = {}
  local ys = req.y or req
  if type(ys) == "string" then ys = { ys } end
  for _, n in ipairs(ys) do names[#names + 1] = n end
  if #names == 0 then
    -- default: the model's plot list if it has one, else every recorded variable
    names = first:names()
  end
  local xname = req.x or "time"
  local units = first:units()
  local series = {}
  for r, run in ipairs(runs) do
    local res, label = run[1], run[2]
    local xs, err = res:column(xname)
    if not xs then error("plot: " .. err, 0) end
    local ru = res:units()
    for v, n in ipairs(names) do
      local c, cerr = res:column(n)
      if not c then error("plot: " .. cerr .. " in " .. label, 0) end
      local l = plotlib.label(n, ru[n])
      if #runs > 1 then l = l .. " (" .. label .. ")" end
      -- overlays: a colour per variable, a dash type per run
      series[#series + 1] = { x = xs, y = c, label = l, color = #runs > 1 and v or nil, dash = r }
    end
  end
  local o = { file = req.file, title = req.title, text = req.text, width = req.width,
              height = req.height }
  o.xlabel = req.xlabel or plotlib.label(xname, xname == "time" and "s" or units[xname])
  o.ylabel = req.ylabel or plotlib.ylabel(names, units)
  if not o.title and S.model then o.title = S.model.name end
  local ok, mode = plotlib.draw(series, o)
  if not ok then error(mode, 0) end
  if req.file then out("plot written to ", req.file, "\n") end
end

local last_plot

-- plot(...): plot("a", "b"), plot{"a", "b", runs = "all", file = "x.png"},
-- plot{x = "body2.x", y = "body2.y"}, plot(result, "a").
function repl.plot(...)
  local req = plot_request(...)
  draw(req)
  last_plot = req
end

-- replot([opts]): the last plot again, with the latest results (a run not
-- named in runs = ... is the last one); opts as for plot change it.
function repl.replot(opts)
  if not last_plot then error("nothing plotted yet: plot(...) first", 2) end
  local req = {}
  for k, v in pairs(last_plot) do req[k] = v end
  req.file = nil
  for k, v in pairs(opts or {}) do req[k] = v end
  draw(req)
end

-- vars([pattern]): the current model's variables with units and kinds.
function repl.vars(pattern)
  local list
  if S.model then
    list = built():vars(pattern)
  elseif #results > 0 then
    list = {}
    local u = results[#results]:units()
    for _, n in ipairs(results[#results]:names()) do
      if not pattern or lied.core.glob(pattern, n) then
        list[#list + 1] = { name = n, unit = u[n], kind = "recorded" }
      end
    end
  else
    error("no current model: load(\"model.lua\") first", 2)
  end
  local limit = 200
  local w = 0
  for k = 1, math.min(#list, limit) do w = math.max(w, #list[k].name) end
  for k = 1, math.min(#list, limit) do
    local v = list[k]
    out(string.format("%-" .. w .. "s  %-8s %s\n", v.name, v.unit ~= "" and v.unit or "-", v.kind))
  end
  if #list > limit then
    out(string.format("... %d more: vars(\"pattern*\") narrows the list\n", #list - limit))
  elseif #list == 0 then
    out("no variable matches '", tostring(pattern), "'\n")
  end
end

-- info([model | file]): tree and counts of the current (or given) model.
function repl.info(x)
  local model, overrides = S.model, S.overrides
  if is_file_arg(x) then
    model, overrides = cli.load_model(x), {}
  elseif lied.ismodel(x) then
    model, overrides = x, {}
  elseif x ~= nil then
    return out(lied.describe(x), "\n")
  end
  if not model then error("no current model: load(\"model.lua\") first", 2) end
  local specs = lied.flatten(model, overrides)
  local b = (model == S.model) and built() or lied.core.build(specs)
  local i = b:info()
  out("model ", model.name, model.doc and (": " .. model.doc) or "", "\n")
  local depth = {}
  local shown = 0
  for k, s in ipairs(specs) do
    local d = s.parent > 0 and depth[s.parent] + 1 or 0
    depth[k] = d
    if shown < 60 then
      local name = s.array and string.format("%s[1..%d]", s.name, s.count) or s.name
      out(string.rep("  ", d), name, "  (", s.class and (s.class.domain .. "." .. s.class.name)
        or "model", ")\n")
      shown = shown + 1
    end
  end
  if #specs > shown then out(string.format("  ... %d more declarations\n", #specs - shown)) end
  out(string.format("%d components, %d blocks, %d states, %d tearing pairs, %d sections\n",
    i.components, i.blocks, i.states, i.tearing_pairs, i.sections))
  if model == S.model and overrides_text() ~= "" then out("overrides: ", overrides_text(), "\n") end
end

-- save(path, [result | index]): the last result (or the given one) to a
-- .csv or .mat file.
function repl.save(path, r)
  if type(path) ~= "string" or not (path:match("%.csv$") or path:match("%.mat$")) then
    error("save(path): path must be a .csv or .mat file name, got " .. tostring(path), 2)
  end
  local res = pick_result(r)
  local n = res:save(path)
  out(string.format("saved %d rows to %s\n", n, path))
end

-- ---- help -------------------------------------------------------------------

local docs = {
  { "load", "make the model a file returns the current model", "load(file)", [[
Loads the model file (it returns a model) and makes it the current model;
returns the model. load(chunk) with a string that is not a file, or a
function, is Lua's load.]] },
  { "run", "simulate the current model; returns the result", "run([model | file], [opts])", [[
Simulates the current model (run(file) loads it first; run(Model) makes it
current) with its experiment, the session's set() overrides, then opts, the
run options (lied.core.run_options: ]] .. table.concat(run_names, ", ") .. [[),
e.g. vars = "a,b*", out = "x.csv", and set = {path = value} for this run
only. Returns the result, also kept in results[i]. Ctrl-C stops the run and
keeps the rows so far.]] },
  { "plot", "plot variables, runs, x-y, to a window, the terminal or a file", "plot(...)", [[
plot("a", "b")                    variables of the last result against time
plot{"a", runs = "all"}           overlay of every run (runs = {1, 3} some)
plot{x = "body2.x", y = "body2.y"}  an x-y plot (y may be a list)
plot{..., file = "x.png"}         a file: .png, .svg or .pdf
plot(results[2], "a")             a given result
Also title = "...", text = true (a text plot), width/height (text plots).
A window when a display exists, else a text plot in the terminal.]] },
  { "replot", "the last plot again with the latest results", "replot([opts])", [[
Repeats the last plot with the latest results (for instance after set() and
run()); opts change it, e.g. replot{file = "x.svg"} or replot{runs = "all"}.]] },
  { "vars", "the model's variables with units", "vars([pattern])", [[
Lists the current model's variables with units and kinds; the pattern is a
glob with * and ? (brackets are array indices): vars("t1.*").]] },
  { "set", "override a parameter (like --set) and rebuild", "set(path, value)", [[
Overrides a parameter of the current model, like --set, and rebuilds it:
set("p1.L", 2000), set("n", 100), set{["t1.level"] = 3}; set("stop", 50)
changes an experiment setting (a run option: stop, dt, solver, vars, ...);
set(path, nil) removes the override.]] },
  { "info", "model tree and counts", "info([model | file])", [[
The model tree and counts (components, blocks, states, tearing pairs,
sections) of the current model, a model, or a model file. info(Class)
describes a component class.]] },
  { "save", "write a result to .csv or .mat", "save(path, [result])", [[
Writes the last result (or results[i], or a result) to a .csv or .mat file
(MAT v4, Modelica result layout).]] },
  { "help", "this overview, or help on a command, class or model", "help([x])", [[
This overview; help(run) or help("run") a command; help(Class), help(Model)
describes a component class or a model.]] },
}
local doc_of = {}
for _, d in ipairs(docs) do doc_of[d[1]] = d end
-- docs entries: { name, summary, signature, text }

function repl.help(x)
  if x == nil then
    out("lied REPL commands (Lua functions; they default to the current model and the last result):\n")
    for _, d in ipairs(docs) do
      out(string.format("  %-28s %s\n", d[3], d[2]))
    end
    out([[
  results[i]                   every result of the session (results[#results] is the last)
Lua as usual: bare expressions print, e.g. results[1]:column("t1.level")[1].
Tab completes globals, fields and, inside quotes, variable names of the model.
Ctrl-C stops a run (keeping its rows) or clears the line; Ctrl-D quits.
More: docs/repl.md; the Lua API: docs/lua-api.md.
]])
    return
  end
  local name = x
  if type(x) == "function" then
    for k, f in pairs(repl) do if f == x then name = k end end
  end
  local d = type(name) == "string" and doc_of[name]
  if d then
    out(d[3], "\n", d[4], "\n")
  elseif type(x) == "string" and type(lied[x]) == "function" then
    out("lied.", x, ": see docs/lua-api.md\n")
  else
    out(lied.describe(x), "\n")
  end
end

-- ---- completion -----------------------------------------------------------------

local names_cache = { model = nil, list = nil }
local NAMES_LIMIT = 200000 -- larger models complete from vars(prefix*) each time

-- Variable names of the current model (and of the last result).
local function model_names(prefix)
  local b = S.model and S.built
  local list = {}
  if b then
    if names_cache.model == b then return names_cache.list end
    local ok, vs = pcall(function()
      local info = b:info()
      if info.components * 8 > NAMES_LIMIT then return b:vars(prefix .. "*") end
      return b:vars()
    end)
    if ok then for k, v in ipairs(vs) do list[k] = v.name end end
    if ok and #list <= NAMES_LIMIT and #vs == #list and b:info().components * 8 <= NAMES_LIMIT then
      names_cache.model, names_cache.list = b, list
    end
  elseif #results > 0 then
    list = results[#results]:names()
  end
  return list
end

-- Candidates for `word` inside a string: names cut after the next '.' or '['.
local function complete_name(word)
  local seen, cands = {}, {}
  for _, n in ipairs(model_names(word)) do
    if n:sub(1, #word) == word then
      local rest = n:sub(#word + 1)
      local cut = rest:find("[%.%[]", 2)
      local c = cut and (word .. rest:sub(1, cut)) or n
      if not seen[c] then seen[c] = true; cands[#cands + 1] = c end
    end
  end
  if word == "" or ("time"):sub(1, #word) == word then
    if not seen.time then cands[#cands + 1] = "time" end
  end
  table.sort(cands)
  return cands
end

-- Keys of a table or of a userdata's methods (via its metatable's __index).
local function fields_of(v, methods_only)
  local keys = {}
  local seen = {}
  local function add_table(t)
    if type(t) ~= "table" then return end
    for k, x in pairs(t) do
      if type(k) == "string" and k:match("^[%a_][%w_]*$") and not seen[k] then
        if not methods_only or type(x) == "function" then seen[k] = true; keys[#keys + 1] = k end
      end
    end
  end
  if type(v) == "table" then add_table(v) end
  local depth = 0
  local mt = getmetatable(v)
  while type(mt) == "table" and depth < 5 do
    local idx = rawget(mt, "__index")
    if type(idx) ~= "table" then break end
    add_table(idx)
    mt = getmetatable(idx)
    depth = depth + 1
  end
  if lied.core.isclass(v) then
    for _, k in ipairs { "name", "domain", "doc", "params" } do keys[#keys + 1] = k end
  end
  return keys
end

local keywords = { "and", "break", "do", "else", "elseif", "end", "false", "for", "function",
                   "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
                   "true", "until", "while" }

-- Candidates for a Lua expression word: "name", "a.b.c", "a:m".
local function complete_lua(word)
  local base, sep, part = word:match("^(.-)([%.:])([%w_]*)$")
  local cands = {}
  if not base then
    part = word
    for _, k in ipairs(fields_of(_G)) do
      if k:sub(1, #part) == part then cands[#cands + 1] = k end
    end
    for _, k in ipairs(keywords) do
      if k:sub(1, #part) == part then cands[#cands + 1] = k end
    end
  else
    -- walk base without calling anything but table/metatable lookups
    local v = _G
    for key in (base .. "."):gmatch("([^%.]*)%.") do
      if not key:match("^[%a_][%w_]*$") then return {} end
      if type(v) == "table" then
        local t = v
        v = rawget(t, key)
        local mt = getmetatable(t)
        if v == nil and mt and type(rawget(mt, "__index")) == "table" then v = mt.__index[key] end
      elseif type(v) == "userdata" then
        local mt = getmetatable(v)
        v = mt and type(mt.__index) == "table" and mt.__index[key] or nil
      else
        return {}
      end
      if v == nil then return {} end
    end
    for _, k in ipairs(fields_of(v, sep == ":")) do
      if k:sub(1, #part) == part then cands[#cands + 1] = base .. sep .. k end
    end
  end
  table.sort(cands)
  local uniq, last = {}, nil
  for _, c in ipairs(cands) do if c ~= last then uniq[#uniq + 1] = c end; last = c end
  return uniq
end

-- repl.complete(before, word, quote): before is the line up to the word;
-- quote the open quote character or "". Returns a list of candidates, and
-- "files" when file names should be completed instead.
-- Run options starting with word.
local function complete_option(word, cands)
  for _, n in ipairs(run_names) do
    if n:sub(1, #word) == word then cands[#cands + 1] = n end
  end
  table.sort(cands)
  return cands
end

-- Is the cursor at a key of the options table of run{...} or
-- lied.simulate(m, {...})?
local function at_run_option(before)
  local fn, inside = before:match("([%a_]+)%s*%(?[^{}()]*{([^{}]*)$")
  return (fn == "run" or fn == "simulate") and (inside:match("^%s*$") or inside:match(",%s*$"))
end

function repl.complete(before, word, quote)
  if quote ~= "" then
    local fn = before:match("([%w_%.]+)%s*%(?%s*$")
    if fn == "load" or fn == "run" or fn == "dofile" or fn == "info" or fn == "save"
        or fn == "loadfile" or (before:match("file%s*=%s*$")) then
      return {}, "files"
    end
    if fn == "set" then return complete_option(word, complete_name(word)) end
    return complete_name(word)
  end
  if not word:find("[%.:]") and at_run_option(before) then return complete_option(word, {}) end
  return complete_lua(word)
end

-- The commands as globals; the session's results as `results`.
function repl.install(env)
  for _, k in ipairs { "load", "run", "plot", "replot", "vars", "set", "info", "save", "help" } do
    env[k] = repl[k]
  end
  env.results = results
end

-- For tests: the session state.
function repl.state() return S end

return repl
