-- lied.repl: the REPL's commands (load, run, plot, replot, vars, set, info,
-- save, help) and its tab completion. Commands are plain Lua functions that
-- default to the current model and the last result (docs/repl.md).
local lied = require "lied"
local cli = require "lied.cli"
local plotlib = require "lied.plot"
local analysis = require "lied.analysis"

local repl = {}

-- Session state: the current model (class, file, overrides, built model),
-- every result of the session with a label, the last plot request.
local S = { overrides = {}, experiment = {} }
local results, labels = {}, {}
repl.results = results
repl.labels = labels

-- `results` at the prompt: a table of the runs (label, rows, variables, end).
setmetatable(results, { __name = "lied.Results", __tostring = function(r)
  if #r == 0 then return "no results yet: run() makes results[1]" end
  local lines = { string.format("%-4s %-8s %-6s %-10s %s", "i", "rows", "vars", "t end", "run") }
  for i, res in ipairs(r) do
    local t = res:nrows() > 0 and res:column("time") or nil
    lines[#lines + 1] = string.format("%-4d %-8d %-6d %-10s %s", i, res:nrows(), #res:names(),
      t and string.format("%.6g", t[#t]) or "-", labels[i] or "")
  end
  return table.concat(lines, "\n")
end })

local function out(...) io.stdout:write(...) end

-- A usage error of a command (message alone at the prompt, no position).
local function usage(msg)
  error(lied.core.error("usage", msg), 0)
end

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
  if not S.model then usage("no current model: load(\"model.lua\") first") end
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
  if type(file) ~= "string" and type(file) ~= "function" then
    usage("load(file): expected a model file name (or a Lua chunk: a string or a function), got " ..
      type(file))
  end
  if not is_file_arg(file) then return builtin_load(file, ...) end
  local model = cli.load_model(file)
  S.model, S.file, S.overrides, S.experiment, S.built = model, file, {}, {}, nil
  local info = built():info()
  out(string.format("%s: model %s, %d components, %d states\n", file, model.name,
    info.components, info.states))
  return model
end

-- A value as a message shows it: the string "abc", the number 1.5, a table.
local function shown(v)
  if type(v) == "string" then return string.format("the string %q", v) end
  if type(v) == "number" or type(v) == "boolean" then return string.format("the %s %s", type(v), tostring(v)) end
  return "a " .. (getmetatable(v) and getmetatable(v).__name or type(v))
end

-- A command's table argument: nil or a plain table, and its `set` (if
-- any) a table too; else a usage error naming the command (a number or a
-- string reached pairs() in lied's code: a traceback for the user's typo).
local function opt_table(opts, what)
  if opts ~= nil and (type(opts) ~= "table" or getmetatable(opts) ~= nil) then
    usage(string.format("%s: opts must be a table such as {stop = 10}, got %s", what, shown(opts)))
  end
  if opts and opts.set ~= nil and (type(opts.set) ~= "table" or getmetatable(opts.set) ~= nil) then
    usage(string.format("%s: set must be a table such as {[\"p1.L\"] = 2000}, got %s", what,
      shown(opts.set)))
  end
  return opts
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
  opt_table(opts, "run")
  need_model()
  local model = built()
  if opts and opts.set then
    local ov = {}
    for k, v in pairs(S.overrides) do ov[k] = v end
    for k, v in pairs(opts.set) do ov[k] = v end
    model = lied.build(S.model, ov)
  end
  local o = run_options(opts)
  local res, stats, err = lied.run_experiment(S.model, model, S.experiment.vars or (opts or {}).vars, o)
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
  if type(path) ~= "table" and type(path) ~= "string" then
    usage("set(path, value): path must be a string such as \"p1.L\"")
  end
  -- set(path, nil) removes the override: a table cannot hold the nil
  local t, removed = type(path) == "table" and path or { [path] = value }, nil
  if type(path) == "string" and value == nil then
    if S.overrides[path] == nil and S.experiment[path] == nil then
      usage(string.format("set: '%s' is not overridden (overrides: %s)", path,
        overrides_text() ~= "" and overrides_text() or "none"))
    end
    removed = path
  end
  local old, oldexp = {}, {}
  for k, v in pairs(S.overrides) do old[k] = v end
  for k, v in pairs(S.experiment) do oldexp[k] = v end
  if removed then S.overrides[removed], S.experiment[removed] = nil, nil end
  for k, v in pairs(t) do
    if run_keys[k] and S.model.parameters[k] == nil then
      -- checked now, with the option's name, not at the next run()
      local ok, err = pcall(lied.core.check_run_options, { [k] = v })
      if not ok then
        S.overrides, S.experiment = old, oldexp
        error(err, 0)
      end
      S.experiment[k] = v
    else
      if v ~= nil and type(v) ~= "number" and type(v) ~= "table" and type(v) ~= "boolean" then
        usage(string.format("set(%q, value): value must be a number, got %s", k, type(v)))
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
    if #results == 0 then usage("no result yet: run() first") end
    return results[#results], labels[#results]
  end
  if math.type(r) == "integer" then
    if not results[r] then usage(string.format("no results[%d] (%d runs so far)", r, #results)) end
    return results[r], labels[r]
  end
  if not analysis.is_result(r) then -- "abc", 1.5, a table: not a result (a traceback before)
    usage(string.format("expected a result or an index into results[] (1 to %d), got %s", #results,
      shown(r)))
  end
  for i, x in ipairs(results) do if x == r then return x, labels[i] end end
  return r, "result"
end

local is_result = analysis.is_result

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
      for kk = 1, #a do
        local v = a[kk]
        if is_result(v) then
          if req.result then usage("plot: give one result, or runs = {...} for several") end
          req.result = v
        elseif type(v) == "string" then
          req[#req + 1] = v
        else
          usage("plot: names must be strings, got " .. type(v) .. " " .. tostring(v))
        end
      end
      for kk, v in pairs(a) do
        if math.type(kk) ~= "integer" then req[kk] = v end
      end
    elseif a ~= nil then
      usage("plot: unexpected argument " .. tostring(a))
    end
  end
  return req
end

-- The runs a request shows: runs = "all" | index | {indices}; default the
-- given result or the last one.
local function request_runs(req)
  if req.result then return { { pick_result(req.result) } } end
  local idx
  -- runs = a list of results (a sweep)
  if type(req.runs) == "table" and is_result(req.runs[1]) then
    local rs = {}
    for k, r in ipairs(req.runs) do
      local res, label = pick_result(r)
      rs[k] = { res, req.runs.labels and req.runs.labels[k] or label }
    end
    return rs
  end
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
    usage("plot: runs must be \"all\", an index, a list of indices or of results")
  end
  if #results == 0 then usage("no result yet: run() first") end
  local rs = {}
  for _, k in ipairs(idx) do rs[#rs + 1] = { pick_result(k) } end
  return rs
end

-- A column of a result for plot: a recorded name, else a Lua expression of
-- recorded names; the message says when a variable of the model exists but
-- was not recorded, and how to record it.
local function plot_column(res, n, label)
  local c, cerr = res:column(n)
  if c then return c, true end
  if n:match("^[%w_%.%[%]]+$") then
    if S.built then
      local ok, vs = pcall(S.built.vars, S.built, n)
      if ok and #vs > 0 then
        usage(string.format("plot: %s exists in model %s but was not recorded in %s; record it " ..
          "with run{vars = \"%s\"} (or set(\"vars\", \"%s\") for every run; vars = \"*\" records all)",
          n, S.model.name, label, n, n))
      end
    end
    usage("plot: " .. cerr .. " in " .. label)
  end
  local e, msg = analysis.expression(res, n)
  if not e then usage("plot: " .. msg) end
  return e, false
end

local function draw(req)
  local runs = request_runs(req)
  local o = {}
  for k, v in pairs(req) do o[k] = v end
  o.result, o.runs = nil, nil
  if not o.title and S.model then o.title = S.model.name end
  local ok, drawn, why = pcall(plotlib.figure, runs, o, function(res, n, label)
    return (plot_column(res, n, label))
  end)
  if not ok then -- a bad request (usage), or a name not recorded (plot_column says so)
    if type(drawn) == "string" then
      usage(drawn:find("^plot:") and drawn or ("plot: " .. drawn))
    end
    error(drawn, 0)
  end
  if not drawn then error(lied.core.error("model", why), 0) end
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
  opt_table(opts, "replot")
  if not last_plot then usage("nothing plotted yet: plot(...) first") end
  local req = {}
  for k, v in pairs(last_plot) do req[k] = v end
  req.file = nil
  for k, v in pairs(opts or {}) do req[k] = v end
  draw(req)
end

-- vars([pattern]): the current model's variables with units and kinds.
function repl.vars(pattern)
  if pattern ~= nil and type(pattern) ~= "string" then
    usage("vars(pattern): pattern must be a string such as \"t1.*\", got " .. shown(pattern))
  end
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
    usage("no current model: load(\"model.lua\") first")
  end
  local limit = 200
  local w = 0
  for k = 1, math.min(#list, limit) do w = math.max(w, #list[k].name) end
  for k = 1, math.min(#list, limit) do
    local v = list[k]
    out(lied.pad(v.name, w) .. string.format("  %-8s %s\n", v.unit ~= "" and v.unit or "-", v.kind))
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
  if not model then usage("no current model: load(\"model.lua\") first") end
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
    usage("save(path): path must be a .csv or .mat file name, got " .. tostring(path))
  end
  local res = pick_result(r)
  local n = res:save(path)
  out(string.format("saved %d rows to %s\n", n, path))
end

-- ---- analysis (lied.analysis, docs/analysis.md) -------------------------------

-- The experiment of the session: the model's, then set()'s run options.
local function session_experiment()
  local e = {}
  for k, v in pairs(S.model.experiment or {}) do e[k] = v end
  for k, v in pairs(S.experiment) do e[k] = v end
  return e
end

local function analysis_opts(opts, what)
  if opts ~= nil and type(opts) ~= "table" then
    usage(string.format("%s(opts): opts must be a table such as {at = 10}, got %s", what, type(opts)))
  end
  opt_table(opts, what)
  local o = {}
  for k, v in pairs(opts or {}) do o[k] = v end
  if o.set then
    local ov = {}
    for k, v in pairs(S.overrides) do ov[k] = v end
    for k, v in pairs(o.set) do ov[k] = v end
    o.set = ov
  else
    o.built = built()
  end
  return o
end

-- steady([opts]): the steady state of the current model (fixed, at, tol,
-- maxit, t, run, set); a lied.Steady that prints as a table of the states.
function repl.steady(opts)
  need_model()
  local o = analysis_opts(opts, "steady")
  return analysis.steady(S.model, o, session_experiment())
end

-- linearize([opts]): A (B, C, D for inputs, outputs) and the eigenvalues of
-- the current model at its start values or at = T.
function repl.linearize(opts)
  need_model()
  local o = analysis_opts(opts, "linearize")
  return analysis.linearize(S.model, o, session_experiment())
end

-- params([pattern]): the parameters of the current model's instances with
-- their values and units, and which are overridden by set().
function repl.params(pattern)
  need_model()
  if pattern ~= nil and type(pattern) ~= "string" then usage("params(pattern): pattern must be a string") end
  local b = built()
  local list, total = b:params(pattern, 200)
  local lines = {}
  -- the model's own parameters (lied.model "X" {parameters = {...}})
  for _, k in ipairs(sorted_keys(S.model.parameters)) do
    if not pattern or lied.core.glob(pattern, k) then
      local v = S.overrides[k]
      if v == nil then v = S.model.parameters[k] end
      lines[#lines + 1] = { name = k, value = type(v) == "number" and v or tostring(v), unit = "",
                            doc = "model parameter" }
    end
  end
  if total == 0 and #lines == 0 then
    out("no parameter matches '", tostring(pattern), "'\n")
    return
  end
  for _, p in ipairs(list) do lines[#lines + 1] = p end
  local fmt_list = {}
  for _, p in ipairs(lines) do
    if type(p.value) ~= "number" and type(p.value) ~= "table" and not (p.doc ~= "model parameter" and type(p.value) == "string") then
      p.value = tonumber(p.value) or 0
    end
    fmt_list[#fmt_list + 1] = p
  end
  out(analysis.params_text(fmt_list, total + (#lines - #list), S.overrides))
end

-- sweep{param = {values...}, ..., mode = "grid" | "list", run = {opts}}:
-- one run of the current model per point; the results join results[] with
-- their parameters as labels. Returns them as a list (field labels).
function repl.sweep(spec)
  need_model()
  if type(spec) ~= "table" then usage("sweep{[\"p1.L\"] = {1000, 2000}, ...}: expected a table") end
  -- the parameters and options as lied.sweep splits them (analysis.lua)
  local params, o = analysis.sweep_parts(spec, { mode = true, run = true })
  local mode, ropts = o.mode, o.run
  if ropts ~= nil and type(ropts) ~= "table" then usage("sweep: run must be a table of run options") end
  local points, keys = analysis.points(params, mode)
  -- check every point builds before running any
  local builds = {}
  for i, p in ipairs(points) do
    local ov = {}
    for k, v in pairs(S.overrides) do ov[k] = v end
    for k, v in pairs(p) do ov[k] = v end
    local ok, b = pcall(lied.build, S.model, ov)
    if not ok then error(lied.core.error(lied.error_kind(b), "sweep: " .. analysis.point_label(p, keys) .. ": " .. tostring(b)), 0) end
    builds[i] = b
  end
  local list = { labels = {} }
  local o = run_options(ropts)
  for i, p in ipairs(points) do
    local res, stats, err = builds[i]:run(o)
    local k = #results + 1
    results[k] = res
    labels[k] = string.format("run %d: %s", k, analysis.point_label(p, keys))
    list[i], list.labels[i] = res, analysis.point_label(p, keys)
    builds[i] = nil
    if err then
      out(string.format("run %d: %s failed at t = %.10g\n", k, list.labels[i], stats.t_end))
      error(err, 0)
    end
    out(string.format("run %d: %s, %d rows, %.3g s -> results[%d]\n", k, list.labels[i], res:nrows(),
      stats.wall, k))
    if stats.interrupted then out("sweep interrupted\n"); break end
  end
  return setmetatable(list, { __name = "lied.Sweep", __tostring = function(l)
    return string.format("sweep of %d runs (plot{\"name\", runs = s} overlays them)", #l)
  end })
end

-- compare(a, b): the largest difference per variable of two results
-- (results[i], indices, or the last two runs).
function repl.compare(a, b)
  if a == nil and b == nil then
    if #results < 2 then usage("compare(): needs two runs (or compare(r1, r2))") end
    a, b = #results - 1, #results
  end
  local ra, rb = pick_result(a), pick_result(b)
  return analysis.compare(ra, rb)
end

-- clear(): forget every result of the session (results[] empties; their
-- memory is freed once nothing else holds them).
function repl.clear()
  local n = #results
  for i = n, 1, -1 do results[i], labels[i] = nil, nil end
  collectgarbage()
  out(string.format("%d result%s forgotten\n", n, n == 1 and "" or "s"))
end

-- value([result,] name, t): a recorded variable at time t (interpolated).
function repl.value(r, name, t)
  if not is_result(r) and math.type(r) ~= "integer" then r, name, t = nil, r, name end
  return analysis.value((pick_result(r)), name, t)
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
plot{"a", y2 = {"b"}}             b on a second (right) y axis
plot{panels = {{"a"}, {"b", y2 = {"c"}}}, layout = {2, 1}}   panels
plot{"T:K", units = {Pa = "kPa"}}  display units (default degC, bar, kW, rpm,
                                  L/min; units = false: SI)
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
  { "steady", "the steady state der(x) = 0 of the current model", "steady([opts])", [[
Solves der(x) = 0 by pseudo-transient continuation from the start values, or
with at = T from the states at T of a run (docs/analysis.md). Quantities the
dynamics conserve (the water in the vessels) keep their start value; fix a
state instead with fixed = {"t1.level"}. Options: fixed, at, tol (1e-10),
maxit (500), t (model time), run = {solver, dt, ...} (the transient), set =
{...} (overrides for this call). Returns the states (s.states["t1.level"]).]] },
  { "linearize", "A, B, C, D and eigenvalues at the start or at = T", "linearize([opts])", [[
Linearises the current model by central differences: der(dx) = A dx + B du,
dy = C dx + D du, at the start values or at = T of a run. inputs =
{"src.value"} (parameters of instances), outputs = {"t1.level"} (variables).
Returns l.A, l.B, l.C, l.D (lists of rows), l.states, l.eigenvalues ({re, im}
pairs), l:csv(true) (CSV text). eig = false skips the eigenvalues.]] },
  { "params", "parameters with values, units and overrides", "params([pattern])", [[
Lists the parameters of the current model's instances (glob pattern with *
and ?) with their values and units; "set" marks overrides of set().]] },
  { "sweep", "one run per parameter point; results labelled", "sweep{param = {...}}", [[
sweep{["p1.L"] = {1000, 2000, 4000}} runs the current model once per value
(several parameters: every combination; mode = "list" pairs them), with run
= {stop = 50, ...} options. The results join results[] labelled by their
parameters; s = sweep{...}; plot{"t1.level", runs = s} overlays them.]] },
  { "compare", "largest difference per variable of two results", "compare([a, b])", [[
compare(results[1], results[2]) (or indices; default the last two runs):
for every variable recorded in both, the largest difference (b interpolated
at a's times), where, and relative to the largest |a|.]] },
  { "value", "a recorded variable at time t (interpolated)", "value([res,] name, t)", [[
value("t1.level", 12.5) of the last result, value(results[1], "t1.level", 12.5):
linear interpolation between output points.]] },
  { "clear", "forget every result (frees their memory)", "clear()", [[
Forgets every result of the session: results[] empties and the memory the
results held is freed (unless a variable still refers to one). A long
session of runs and sweeps keeps every result until then.]] },
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
  elseif type(x) == "table" and getmetatable(x) == nil or (type(x) == "table" and not lied.ismodel(x)
      and not lied.core.isclass(x)) then
    -- a library: its classes with their summaries
    local names = {}
    for k, v in pairs(x) do
      if type(k) == "string" and (lied.core.isclass(v) or (type(v) == "table" and v.class)) then
        names[#names + 1] = k
      end
    end
    table.sort(names)
    if #names == 0 then out(lied.describe(x), "\n"); return end
    local w = 0
    for _, k in ipairs(names) do w = math.max(w, #k) end
    out(string.format("%d classes (help(lib.Class) describes one):\n", #names))
    for _, k in ipairs(names) do
      local c = x[k]
      local cls = lied.core.isclass(c) and c or c.class
      out("  " .. lied.pad(k, w) .. string.format("  %s\n", (tostring(cls.doc or ""):match("^[^\n]*"))))
    end
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
local function complete_option(word, cands, names)
  for _, n in ipairs(names or run_names) do
    if n:sub(1, #word) == word then cands[#cands + 1] = n end
  end
  table.sort(cands)
  return cands
end

-- Is the cursor at a key of the options table of run{...} or
-- lied.simulate(m, {...})?
local function at_run_option(before)
  local fn, inside = before:match("([%a_]+)%s*%(?[^{}()]*{([^{}]*)$")
  local at_key = inside and (inside:match("^%s*$") or inside:match(",%s*$"))
  if not at_key then return nil end
  if fn == "run" or fn == "simulate" then return run_names end
  if fn == "steady" then return { "at", "fixed", "maxit", "run", "set", "t", "tol" } end
  if fn == "linearize" then return { "at", "eig", "inputs", "outputs", "run", "set", "t" } end
  if fn == "sweep" then return { "mode", "run" } end
  return nil
end

function repl.complete(before, word, quote)
  if quote ~= "" then
    -- readline passes the line up to the word with the opening quote
    local b = before:gsub("[\"']$", "")
    local fn = b:match("([%w_%.]+)%s*%(?%s*$")
    if fn == "load" or fn == "run" or fn == "dofile" or fn == "info" or fn == "save"
        or fn == "loadfile" or (b:match("file%s*=%s*$")) then
      return {}, "files"
    end
    if fn == "set" then return complete_option(word, complete_name(word)) end
    return complete_name(word)
  end
  local keys = not word:find("[%.:]") and at_run_option(before)
  if keys then return complete_option(word, {}, keys) end
  return complete_lua(word)
end

-- The commands as globals; the session's results as `results`.
function repl.install(env)
  for _, k in ipairs { "load", "run", "plot", "replot", "vars", "set", "info", "save", "help",
                       "steady", "linearize", "params", "sweep", "compare", "value", "clear" } do
    env[k] = repl[k]
  end
  env.results = results
end

-- The text of a value at the prompt: tostring, except that a plain table
-- shows its contents ({1, 2, x = 3}; nested to depth 2, at most 40 entries).
local function show_value(v, depth)
  if type(v) == "string" then return depth > 0 and string.format("%q", v) or v end
  if type(v) ~= "table" or getmetatable(v) ~= nil then
    return tostring(v)
  end
  if depth >= 2 then return "{...}" end
  local parts, n = {}, 0
  for i = 1, #v do
    n = n + 1
    if n > 40 then parts[#parts + 1] = "... (" .. #v .. " items)"; break end
    parts[#parts + 1] = show_value(v[i], depth + 1)
  end
  local keys = {}
  for k in pairs(v) do
    if not (math.type(k) == "integer" and k >= 1 and k <= #v) then keys[#keys + 1] = k end
  end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  for _, k in ipairs(keys) do
    n = n + 1
    if n > 40 then parts[#parts + 1] = "..."; break end
    local ks = (type(k) == "string" and k:match("^[%a_][%w_]*$")) and k or ("[" .. show_value(k, 1) .. "]")
    parts[#parts + 1] = ks .. " = " .. show_value(v[k], depth + 1)
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

-- repl.show(...): what the prompt prints for the values of an expression.
function repl.show(...)
  local t = table.pack(...)
  local parts = {}
  for i = 1, t.n do parts[i] = show_value(t[i], 0) end
  io.stdout:write(table.concat(parts, "\t"), "\n")
end

-- For tests: the session state.
function repl.state() return S end

return repl
