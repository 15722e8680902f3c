-- lied.analysis: steady states, linearisation, sweeps and comparison of
-- results, for scripts, the REPL and the command line (docs/analysis.md).
-- The numerics are C (src/analysis, through model:steady and
-- model:linearize); this module adds the model's experiment, overrides,
-- printing and the result-side helpers (value, compare, expressions).
local lied = require "lied"
local core = lied.core

local analysis = {}

local function usage(msg, level)
  error(core.error("usage", msg), level and level + 1 or 0)
end

local function copy(t)
  local c = {}
  for k, v in pairs(t or {}) do c[k] = v end
  return c
end

-- Numbers as the tables print them: %.12g, -0 as 0.
local function g(v)
  if v == 0 then v = 0 end
  return string.format("%.12g", v)
end
analysis.format = g

local function units_of(built)
  local u = {}
  for _, v in ipairs(built:vars()) do u[v.name] = v.unit end
  return u
end

-- ---- steady states ---------------------------------------------------------------

local Steady = { __name = "lied.Steady" }
Steady.__index = Steady
analysis.Steady = Steady

function Steady.__tostring(s)
  local lines = { string.format("steady state of %s at t = %s (%d pseudo-time steps, largest |der| %.3g)",
    s.model or "the model", g(s.t), s.steps, s.residual) }
  local w = 0
  for _, n in ipairs(s.names) do w = math.max(w, #n) end
  for i, n in ipairs(s.names) do
    local u = s.units and s.units[n] or ""
    lines[#lines + 1] = "  " .. lied.pad(n, w) .. string.format("  %-18s %s", g(s.values[i]),
      u ~= "" and u or "")
  end
  return (table.concat(lines, "\n"):gsub(" +\n", "\n"):gsub(" +$", ""))
end

-- The run options of the transient (at = T): the model's experiment, then
-- opts.run; without vars, out and the outputs' settings.
local function transient_options(model, extra, opts)
  local r = copy(lied.ismodel(model) and model.experiment or {})
  for k, v in pairs(extra or {}) do r[k] = v end
  for k, v in pairs(opts.run or {}) do r[k] = v end
  r.vars, r.out, r.interval, r.clients, r.set = nil, nil, nil, nil, nil
  return r
end

-- The C options: the keys steady/linearize take, with run filled in.
local function c_options(opts, keys, model, experiment)
  if opts ~= nil and type(opts) ~= "table" then usage("expected a table of options, got " .. type(opts), 3) end
  local o = {}
  for k, v in pairs(opts or {}) do
    if k ~= "set" and k ~= "run" and k ~= "built" then o[k] = v end
  end
  if o.at ~= nil or (opts and opts.run) then o.run = transient_options(model, experiment, opts or {}) end
  return o
end

-- analysis.steady(model, opts): opts fixed, at, run, t, tol, maxit, set
-- (overrides), built (an already built model). Returns a lied.Steady.
function analysis.steady(model, opts, experiment)
  opts = opts or {}
  local b = opts.built or lied.build(model, opts.set)
  local s = b:steady(c_options(opts, nil, model, experiment))
  s.model = lied.ismodel(model) and model.name or nil
  s.units = units_of(b)
  return setmetatable(s, Steady)
end

-- ---- linearisation ---------------------------------------------------------------

local Linear = { __name = "lied.Linear" }
Linear.__index = Linear
analysis.Linear = Linear

local function matrix_lines(lines, name, rows, rownames, colnames)
  if #rows == 0 or #colnames == 0 then return end
  lines[#lines + 1] = name .. "," .. table.concat(colnames, ",")
  for i, r in ipairs(rows) do
    local t = {}
    for j, v in ipairs(r) do t[j] = string.format("%.17g", v == 0 and 0 or v) end
    lines[#lines + 1] = rownames[i] .. "," .. table.concat(t, ",")
  end
end

-- The matrices as CSV blocks (A; B, C, D when there are inputs/outputs;
-- eigenvalues when eig): each block's header row starts with its name.
-- With write (a function of a string), the text goes to it block by block
-- and a Ctrl-C stops it ("linearize (writing the matrices): interrupted").
function Linear.csv(l, eig, write)
  local lines = {}
  if write then
    lines = setmetatable({}, { __newindex = function(t, k, v)
      rawset(t, k, v)
      if k % 256 == 0 then
        lied.core.check_stop("linearize (writing the matrices)")
        write(table.concat(t, "\n", k - 255, k) .. "\n")
      end
    end })
  end
  matrix_lines(lines, "A", l.A, l.states, l.states)
  local function block(name, rows, rn, cn)
    if #rows > 0 and #cn > 0 then
      lines[#lines + 1] = ""
      matrix_lines(lines, name, rows, rn, cn)
    end
  end
  block("B", l.B, l.states, l.inputs)
  block("C", l.C, l.outputs, l.states)
  block("D", l.D, l.outputs, l.inputs)
  if l.nonsmooth and #l.nonsmooth > 0 then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "nonsmooth,matrix,row,column,forward,backward"
    for _, q in ipairs(l.nonsmooth) do
      lines[#lines + 1] = string.format("%s,%s,%s,%s,%.17g,%.17g", q.kind, q.matrix, q.row, q.column,
        q.forward, q.backward)
    end
  end
  if eig and l.eigenvalues then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "eigenvalue,re,im"
    for i, e in ipairs(l.eigenvalues) do
      lines[#lines + 1] = string.format("%d,%.17g,%.17g", i, e[1] == 0 and 0 or e[1], e[2] == 0 and 0 or e[2])
    end
  end
  if write then
    local n = #lines
    write(table.concat(lines, "\n", n - n % 256 + 1, n) .. (n % 256 > 0 and "\n" or ""))
    return nil
  end
  return table.concat(lines, "\n") .. "\n"
end

-- A note on the entries where the model is not smooth at the point (nil
-- when there are none; docs/analysis.md, "Accuracy").
function analysis.nonsmooth_text(l)
  local ns = l.nonsmooth or {}
  if #ns == 0 then return nil end
  local kinks, second = {}, {}
  for _, q in ipairs(ns) do
    local e = string.format("%s[%s, %s]", q.matrix, q.row, q.column)
    if q.kind == "kink" then
      kinks[#kinks + 1] = string.format("%s (slopes %s and %s)", e, g(q.backward), g(q.forward))
    else
      second[#second + 1] = e
    end
  end
  local function list(t)
    if #t > 4 then return table.concat(t, ", ", 1, 4) .. string.format(" and %d more", #t - 4) end
    return table.concat(t, ", ")
  end
  local out = {}
  if #kinks > 0 then
    out[#out + 1] = "not differentiable at the point (a kink: the one-sided slopes differ, the "
      .. "entry is their mean): " .. list(kinks)
  end
  if #second > 0 then
    out[#out + 1] = "not twice differentiable at the point (extrapolated from two steps, "
      .. "accurate to rounding): " .. list(second)
  end
  return table.concat(out, "\n")
end

local function eig_text(e)
  if e[2] == 0 then return g(e[1]) end
  return string.format("%s %s %si", g(e[1]), e[2] < 0 and "-" or "+", g(math.abs(e[2])))
end
analysis.eig_text = eig_text

function Linear.__tostring(l)
  local lines = { string.format("linearisation of %s at t = %s: %d states, %d inputs, %d outputs",
    l.model or "the model", g(l.t), #l.states, #l.inputs, #l.outputs) }
  if #l.states == 0 then
    lines[#lines + 1] = "no states: A is empty"
  elseif #l.states <= 12 then
    local w = 1
    for _, n in ipairs(l.states) do w = math.max(w, #n) end
    lines[#lines + 1] = "A (der(row) by column: " .. table.concat(l.states, ", ") .. ")"
    for i, r in ipairs(l.A) do
      local t = {}
      for j, v in ipairs(r) do t[j] = string.format("%12s", g(v)) end
      lines[#lines + 1] = "  " .. lied.pad(l.states[i], w) .. string.format(" %s", table.concat(t, " "))
    end
  else
    lines[#lines + 1] = "A: " .. #l.states .. " x " .. #l.states .. " (l.A; l:csv() as CSV)"
  end
  if l.eigenvalues and #l.eigenvalues > 0 then
    local t = {}
    for i, e in ipairs(l.eigenvalues) do
      if i > 24 then t[#t + 1] = "..."; break end
      t[#t + 1] = eig_text(e)
    end
    lines[#lines + 1] = "eigenvalues: " .. table.concat(t, ", ")
  end
  if #l.inputs > 0 or #l.outputs > 0 then lines[#lines + 1] = "B, C, D: l.B, l.C, l.D; l:csv() as CSV" end
  local note = analysis.nonsmooth_text(l)
  if note then lines[#lines + 1] = note end
  return table.concat(lines, "\n")
end

-- analysis.linearize(model, opts): opts inputs, outputs, at, run, t, eig,
-- set, built. Returns a lied.Linear.
function analysis.linearize(model, opts, experiment)
  opts = opts or {}
  local b = opts.built or lied.build(model, opts.set)
  local l = b:linearize(c_options(opts, nil, model, experiment))
  l.model = lied.ismodel(model) and model.name or nil
  return setmetatable(l, Linear)
end

-- ---- parameters ---------------------------------------------------------------------

local function value_text(v)
  if type(v) == "string" then return v end -- a table parameter: its description
  if type(v) == "table" then
    local t = {}
    for i, x in ipairs(v) do t[i] = g(x) end
    return "{" .. table.concat(t, ", ") .. "}"
  end
  return g(v)
end

-- The text of model:params(): name, value, unit, "set" when overrides (a
-- table {path = value}) holds it, the parameter's doc; total: how many
-- matched (more than listed: a line says so).
function analysis.params_text(list, total, overrides)
  overrides = overrides or {}
  local w, wv = 4, 5
  for _, p in ipairs(list) do
    w = math.max(w, #p.name)
    wv = math.max(wv, #value_text(p.value))
  end
  local lines = {}
  for _, p in ipairs(list) do
    local set = overrides[p.name] ~= nil and "set" or ""
    lines[#lines + 1] = (lied.pad(p.name, w) .. "  " .. lied.pad(value_text(p.value), wv) ..
      string.format("  %-8s %-3s %s", p.unit ~= "" and p.unit or "-", set, p.doc)):gsub("%s+$", "")
  end
  if total and total > #list then
    lines[#lines + 1] = string.format("... %d more: a pattern narrows the list (params \"p1.*\")", total - #list)
  end
  return table.concat(lines, "\n") .. (#lines > 0 and "\n" or "")
end

-- ---- results: values, comparison, expressions -------------------------------------

local function is_result(x)
  return type(x) == "userdata" and (getmetatable(x) or {}).__name == "lied.Result"
end
analysis.is_result = is_result

local function column(res, name, what)
  local c, err = res:column(name)
  if not c then usage(what .. ": " .. err, 3) end
  return c
end

-- Linear interpolation of the column ys over the times ts at t.
local function interp(ts, ys, t)
  local n = #ts
  if t <= ts[1] then return ys[1] end
  if t >= ts[n] then return ys[n] end
  local lo, hi = 1, n
  while hi - lo > 1 do
    local mid = (lo + hi) // 2
    if ts[mid] <= t then lo = mid else hi = mid end
  end
  local t0, t1 = ts[lo], ts[hi]
  if t1 == t0 then return ys[hi] end
  return ys[lo] + (ys[hi] - ys[lo]) * (t - t0) / (t1 - t0)
end

-- analysis.value(res, name, t): the recorded variable at time t, linearly
-- interpolated between output points (t within the run).
function analysis.value(res, name, t)
  if not is_result(res) then usage("value(result, name, t): expected a result, got " .. type(res), 2) end
  if type(name) ~= "string" then usage("value(result, name, t): name must be a string", 2) end
  if type(t) ~= "number" or t ~= t then usage("value(result, name, t): t must be a number", 2) end
  local ts = column(res, "time", "value")
  if #ts == 0 then usage("value: the result has no rows", 2) end
  if t < ts[1] or t > ts[#ts] then
    usage(string.format("value: t = %s is outside the run [%s, %s]", g(t), g(ts[1]), g(ts[#ts])), 2)
  end
  return interp(ts, column(res, name, "value"), t)
end

local Comparison = { __name = "lied.Comparison" }
Comparison.__index = Comparison
function Comparison.__tostring(c)
  local lines = { "largest difference per variable (second result interpolated at the first's times):",
    string.format("  compared on [%s, %s]: %d of the first result's %d output points", g(c.overlap[1]),
      g(c.overlap[2]), c.points, c.of) }
  if c.partial then
    lines[#lines + 1] = string.format("  warning: the runs overlap only partly (the first covers [%s, %s], " ..
      "the second [%s, %s]); nothing is compared outside the overlap", g(c.span1[1]), g(c.span1[2]),
      g(c.span2[1]), g(c.span2[2]))
  end
  local w = 8
  for _, d in ipairs(c) do w = math.max(w, #d.name) end
  lines[#lines + 1] = "  " .. lied.pad("variable", w) .. string.format("  %-14s %-14s %s", "max |diff|", "at t", "relative")
  for _, d in ipairs(c) do
    lines[#lines + 1] = "  " .. lied.pad(d.name, w) .. string.format("  %-14s %-14s %s", string.format("%.6g", d.max),
      g(d.t), string.format("%.3g", d.rel))
  end
  if #c == 0 then lines[#lines + 1] = "  (no variable recorded in both)" end
  return table.concat(lines, "\n")
end

-- analysis.compare(r1, r2, [names]): for every variable recorded in both
-- (or the names given), the largest |r1 - r2| over r1's output points
-- within both runs (r2 interpolated), where, and relative to max |r1|.
-- A list {name, max, t, rel}, largest first, with the overlap it covers:
-- overlap = {t0, t1}, points (r1's output points in it) of `of`, span1 and
-- span2 (each run's times), partial (true when either run has times
-- outside the overlap: its tostring warns). Runs that share no time (or a
-- result without rows) are refused: a comparison of nothing said 0
-- (issue 47).
function analysis.compare(r1, r2, names)
  if not is_result(r1) or not is_result(r2) then
    usage("compare(result1, result2): expected two results, got " .. type(r1) .. " and " .. type(r2), 2)
  end
  local in2 = {}
  for _, n in ipairs(r2:names()) do in2[n] = true end
  if type(names) == "string" then names = { names } end
  if names == nil then
    names = {}
    for _, n in ipairs(r1:names()) do if in2[n] then names[#names + 1] = n end end
  end
  local t1, t2 = column(r1, "time", "compare"), column(r2, "time", "compare")
  if #t1 == 0 or #t2 == 0 then
    usage(string.format("compare: the %s result has no rows", #t1 == 0 and "first" or "second"), 2)
  end
  local lo, hi, points = math.max(t1[1], t2[1]), math.min(t1[#t1], t2[#t2]), 0
  for _, t in ipairs(t1) do if t >= lo and t <= hi then points = points + 1 end end
  if points == 0 then
    usage(string.format("compare: the runs share no output time: the first covers [%s, %s], the second " ..
      "[%s, %s]", g(t1[1]), g(t1[#t1]), g(t2[1]), g(t2[#t2])), 2)
  end
  local out = { overlap = { lo, hi }, points = points, of = #t1, span1 = { t1[1], t1[#t1] },
    span2 = { t2[1], t2[#t2] } }
  out.partial = points < #t1 or t2[1] < lo or t2[#t2] > hi
  do
    for _, n in ipairs(names) do
      local a, b = column(r1, n, "compare"), column(r2, n, "compare")
      local m, at, scale = 0, t1[1], 0
      for i, t in ipairs(t1) do
        if t >= t2[1] and t <= t2[#t2] then
          local d = math.abs(a[i] - interp(t2, b, t))
          if d > m or d ~= d then m, at = d, t end
          scale = math.max(scale, math.abs(a[i]))
        end
      end
      out[#out + 1] = { name = n, max = m, t = at, rel = scale > 0 and m / scale or m }
    end
  end
  table.sort(out, function(x, y) return x.max > y.max end)
  return setmetatable(out, Comparison)
end

-- analysis.expression(res, text): the values of a Lua expression of
-- recorded variables (and time) at every output point: "t1.level +
-- t2.level", "math.abs(p1.m_flow)", "crab[1].body1.x - 1". Returns the
-- column, or nil and a message.
function analysis.expression(res, text)
  local chunk, err = load("return " .. text, "=" .. text, "t")
  if not chunk then return nil, "not a recorded variable nor an expression: " .. err end
  local cols, row = {}, 1
  local function col(name)
    local c = cols[name]
    if c == nil then c = res:column(name) or false; cols[name] = c end
    return c
  end
  local Path = {}
  local function path(p)
    return setmetatable({ p = p }, Path)
  end
  Path.__index = function(self, k)
    local p = rawget(self, "p")
    local name = math.type(k) == "integer" and (p .. "[" .. k .. "]") or (p .. "." .. tostring(k))
    local c = col(name)
    if c then return c[row] end
    return path(name)
  end
  local missing
  local function val(x)
    if getmetatable(x) == Path then missing = missing or rawget(x, "p"); return 0 / 0 end
    return x
  end
  for _, op in ipairs { "add", "sub", "mul", "div", "pow", "mod", "unm", "idiv" } do
    Path["__" .. op] = function(a, b) val(a); val(b); return 0 / 0 end
  end
  local env = setmetatable({}, { __index = function(_, k)
    if k == "time" then return cols.time[row] end
    local c = col(k)
    if c then return c[row] end
    if math[k] ~= nil then return math[k] end
    if k == "math" then return math end
    return path(k)
  end })
  cols.time = res:column("time")
  debug.setupvalue(chunk, 1, env)
  local ys = {}
  for r = 1, #cols.time do
    row = r
    local ok, v = pcall(chunk)
    if not ok then return nil, "expression " .. text .. ": " .. tostring(v) end
    v = val(v)
    if missing then
      local _, near = core.suggest(missing, res:names())
      return nil, string.format("expression %s: '%s' was not recorded%s", text, missing, near)
    end
    if type(v) ~= "number" then
      return nil, string.format("expression %s: gives a %s, not a number", text, type(v))
    end
    ys[r] = v
  end
  return ys
end

-- ---- sweeps -------------------------------------------------------------------------

-- The points of a sweep: spec = {path = {values...}, ...}; mode "grid"
-- (every combination, the default) or "list" (the i-th value of every
-- parameter together; equal lengths). A list of {path = value}.
function analysis.points(spec, mode)
  local keys = {}
  for k, v in pairs(spec) do
    if type(k) ~= "string" then usage("sweep: parameter names must be strings, got " .. type(k), 3) end
    if type(v) ~= "table" or #v == 0 then
      usage(string.format("sweep: %s must be a non-empty list of values, got %s", k, type(v)), 3)
    end
    for i, x in ipairs(v) do
      if type(x) ~= "number" then usage(string.format("sweep: %s[%d] must be a number, got %s", k, i, type(x)), 3) end
    end
    keys[#keys + 1] = k
  end
  if #keys == 0 then usage("sweep: no parameter to sweep: sweep{[\"p1.L\"] = {1000, 2000}}", 3) end
  table.sort(keys)
  local points = {}
  if mode == "list" then
    local n = #spec[keys[1]]
    for _, k in ipairs(keys) do
      if #spec[k] ~= n then usage(string.format("sweep: mode = \"list\" needs lists of equal length (%s has %d, %s %d)", keys[1], n, k, #spec[k]), 3) end
    end
    for i = 1, n do
      local p = {}
      for _, k in ipairs(keys) do p[k] = spec[k][i] end
      points[i] = p
    end
  elseif mode == nil or mode == "grid" then
    points[1] = {}
    for _, k in ipairs(keys) do
      local nxt = {}
      for _, p in ipairs(points) do
        for _, v in ipairs(spec[k]) do
          local q = copy(p)
          q[k] = v
          nxt[#nxt + 1] = q
        end
      end
      points = nxt
    end
    if #points > 10000 then usage("sweep: " .. #points .. " points; at most 10000", 3) end
  else
    usage("sweep: mode must be \"grid\" or \"list\", got " .. tostring(mode), 3)
  end
  return points, keys
end

-- "p1.L=1000 n=2" for a point.
function analysis.point_label(p, keys)
  local t = {}
  for _, k in ipairs(keys) do t[#t + 1] = k .. "=" .. string.format("%.10g", p[k]) end
  return table.concat(t, " ")
end

-- The parts of a sweep's table: the swept parameters, and the other keys
-- (`options`: the names that are not parameters, e.g. mode and run).
function analysis.sweep_parts(spec, options)
  local params, opts = {}, {}
  for k, v in pairs(spec) do
    if options[k] then opts[k] = v else params[k] = v end
  end
  return params, opts
end

-- ---- lied.sweep: points over the ranks of mpirun -------------------------------------

-- Values an `each` function returns, as bytes and back: nil, booleans,
-- numbers (floats as their 8 bytes: the same bits), strings, and tables of
-- them (no cycles, no functions or userdata).
local function encode(v, out, seen, where)
  local t = type(v)
  if v == nil then out[#out + 1] = "N"
  elseif v == true then out[#out + 1] = "T"
  elseif v == false then out[#out + 1] = "F"
  elseif math.type(v) == "integer" then out[#out + 1] = string.pack("<c1j", "i", v)
  elseif t == "number" then out[#out + 1] = string.pack("<c1d", "d", v)
  elseif t == "string" then out[#out + 1] = string.pack("<c1s4", "s", v)
  elseif t == "table" then
    if seen[v] then usage(where .. ": the value holds a table inside itself", 0) end
    seen[v] = true
    local n = 0
    for _ in pairs(v) do n = n + 1 end
    out[#out + 1] = string.pack("<c1j", "t", n)
    for k, x in pairs(v) do
      encode(k, out, seen, where)
      encode(x, out, seen, where)
    end
    seen[v] = nil
  else
    usage(string.format("%s: a %s cannot be returned (numbers, strings, booleans and tables of them)", where, t), 0)
  end
end
local function decode(s, at)
  local tag = s:sub(at, at)
  if tag == "N" then return nil, at + 1
  elseif tag == "T" then return true, at + 1
  elseif tag == "F" then return false, at + 1
  elseif tag == "i" then return string.unpack("<j", s, at + 1)
  elseif tag == "d" then return string.unpack("<d", s, at + 1)
  elseif tag == "s" then return string.unpack("<s4", s, at + 1)
  elseif tag == "t" then
    local n
    n, at = string.unpack("<j", s, at + 1)
    local t = {}
    for _ = 1, n do
      local k, x
      k, at = decode(s, at)
      x, at = decode(s, at)
      t[k] = x
    end
    return t, at
  end
  error("sweep: a damaged message from another rank (tag " .. string.format("%q", tag) .. ")", 0)
end
analysis.encode = function(v, where)
  local out = {}
  encode(v, out, {}, where or "value")
  return table.concat(out)
end
analysis.decode = function(s) return (decode(s, 1)) end

-- Rows per message when a result moves to rank 0: at most 1 MiB of doubles.
local ROW_BYTES = 1 << 20

-- The file of point i: the pattern with its one %d (or %0Nd) filled in.
local function check_out(out)
  if type(out) ~= "string" then usage("sweep: out must be a file name pattern with %d (\"runs/p%03d.csv\"), got " .. type(out), 4) end
  local rest = out:gsub("%%%%", "")
  local _, n = rest:gsub("%%", "")
  local _, d = rest:gsub("%%0?%d*d", "")
  if n ~= 1 or d ~= 1 then
    usage("sweep: out = '" .. out .. "' needs one %d (or %03d) for the point's number and no other %", 4)
  end
  local ext = out:match("%.(%a+)$")
  if ext ~= "csv" and ext ~= "mat" then
    usage("sweep: out = '" .. out .. "': use a .csv or .mat file name", 4)
  end
  return function(i) return string.format(out, i) end
end

local sweep_options = { mode = true, run = true, set = true, each = true, out = true }

-- The checks of lied.sweep's arguments; the options, the file pattern, the
-- run options and the points.
local function prepare(model, spec)
  if not lied.ismodel(model) then usage("lied.sweep(model, {...}): expected a model, got " .. type(model)) end
  if type(spec) ~= "table" then usage("lied.sweep(model, {[\"p1.L\"] = {1000, 2000}, ...}): expected a table, got " .. type(spec)) end
  local params, o = analysis.sweep_parts(spec, sweep_options)
  if o.run ~= nil and type(o.run) ~= "table" then usage("sweep: run must be a table of run options, got " .. type(o.run)) end
  if o.set ~= nil and type(o.set) ~= "table" then usage("sweep: set must be a table of overrides, got " .. type(o.set)) end
  if o.each ~= nil and type(o.each) ~= "function" then usage("sweep: each must be a function(res, point, i), got " .. type(o.each)) end
  local file = o.out ~= nil and check_out(o.out) or nil
  local ropts = copy(model.experiment)
  for k, v in pairs(o.run or {}) do ropts[k] = v end
  if (o.run or {}).out ~= nil or (o.run or {}).set ~= nil then
    usage("sweep: run = {" .. ((o.run or {}).out ~= nil and "out" or "set") .. " = ...}: give out = \"p%d.csv\" and set = {...} to the sweep itself")
  end
  ropts.out, ropts.memory = "none", true
  local okr, why = pcall(core.check_run_options, ropts)
  if not okr then error(core.error(lied.error_kind(why), "sweep: " .. tostring(why)), 0) end
  local points, keys = analysis.points(params, o.mode)
  local P = core.mpi().size
  if P > 1 and #points < P then
    usage(string.format("sweep: %d points for %d processes (mpirun -np): at least one point per process", #points, P))
  end
  -- the files rank 0 will write (the first and the last point's): before
  -- any point runs
  if file and core.mpi().rank == 0 then
    for _, i in ipairs { 1, #points } do
      local name = file(i)
      local existed = io.open(name, "rb")
      if existed then existed:close() end
      local f, why = io.open(name, "ab")
      if not f then
        error(core.error("model", "sweep: out: cannot write " .. name .. ": " .. tostring(why):gsub("^.*: ", "")), 0)
      end
      f:close()
      if not existed then os.remove(name) end
    end
  end
  return o, file, ropts, points, keys
end

-- Under mpirun: print the error with the rank and end every rank (the
-- others may be waiting for this one), even when the caller would catch it.
local function end_all(err, mpi)
  io.stderr:write(string.format("lied: rank %d of %d: %s%s\n", mpi.rank, mpi.size, core.errtext(err),
    lied.error_kind(err) == "usage" and "\n(see lied --help)" or ""))
  io.stderr:flush()
  core.mpi_abort(lied.error_kind(err) == "usage" and 2 or 1)
end

-- A sweep's state S: model, o (the checked spec), file (the name of point i's
-- output file, or nil), ropts (the run options), points, keys, P and rank
-- (the processes), keep_result, list (the result, rank 0's).

-- The error of point i in a sweep: kind of err, the point named.
local function point_error(err, what, i, label)
  return core.error(lied.error_kind(err), what .. i .. " (" .. label .. "): " .. core.errtext(err))
end

-- Run point i of S: its label, its result (when kept) and the value of
-- each (encoded for rank 0 on the other ranks).
local function sweep_point(S, i)
  local o, P, rank = S.o, S.P, S.rank
  local p = S.points[i]
  local label = analysis.point_label(p, S.keys)
  local ov = copy(o.set)
  for k, v in pairs(p) do ov[k] = v end
  local ok, b = pcall(lied.build, S.model, ov)
  if not ok then error(point_error(b, "sweep: point ", i, label), 0) end
  local res, stats, err = b:run(S.ropts)
  if err then error(point_error(err, "sweep: point ", i, label), 0) end
  if stats.interrupted then error(core.error("model", "sweep: interrupted at point " .. i .. " (" .. label .. ")"), 0) end
  local entry = { label = label, result = S.keep_result and res or nil }
  if o.each then
    local okv, v = pcall(o.each, res, copy(p), i)
    if not okv then error(point_error(v, "sweep: each: point ", i, label), 0) end
    entry.value = v
    entry.packed = P > 1 and rank ~= 0 and analysis.encode(v, "sweep: each: point " .. i .. " (" .. label .. ")") or nil
    -- the value comes back through the same bytes with one process too, so
    -- what a script sees does not depend on where the point ran
    if P == 1 or rank == 0 then entry.value = analysis.decode(analysis.encode(v, "sweep: each: point " .. i .. " (" .. label .. ")")) end
  end
  return entry
end

-- Point i's entry into S.list: its label and point, its file written (rank
-- 0), and the value kept: each's, the file's name or the result.
local function sweep_take(S, i, entry)
  local list, file = S.list, S.file
  list.labels[i], list.points[i] = entry.label, copy(S.points[i])
  if file then
    local name = file(i)
    entry.result:save(name)
    list.files[i] = name
  end
  if S.o.each then list[i] = entry.value
  elseif file then list[i] = list.files[i]
  else list[i] = entry.result end
end

-- A rank other than 0: its points' entries to rank 0, once rank 0 asks
-- (until then waiting asleep rather than in a send that would spin), in
-- point order, each result in bounded messages.
local function sweep_send(mine)
  core.mpi_recv(0)
  for _, entry in ipairs(mine) do
    local res = entry.result
    local names = res and res:names() or nil
    local nrows = res and res:nrows() or 0
    core.mpi_send(0, analysis.encode({ label = entry.label, value = entry.packed, names = names,
      units = names and res:units() or nil, nrows = nrows }))
    local per = math.max(1, ROW_BYTES // (8 * ((names and #names or 0) + 1)))
    for r = 1, nrows, per do core.mpi_send(0, core.result_rows(res, r, math.min(per, nrows - r + 1))) end
    entry.result = nil
  end
end

-- Rank 0: rank r's points a .. b, received and taken in order.
local function sweep_receive(S, r, a, b)
  core.mpi_send(r, "") -- ready for rank r's points
  for i = a, b do
    local head = analysis.decode(core.mpi_recv(r))
    local entry = { label = head.label, value = head.value and analysis.decode(head.value) or nil }
    if head.names then
      local res = core.result_new(head.names, head.units)
      local got = 0
      while got < head.nrows do
        core.result_append(res, core.mpi_recv(r))
        got = res:nrows()
      end
      entry.result = res
    end
    sweep_take(S, i, entry)
  end
end

-- lied.sweep(model, spec) (docs/distributed.md, "Sweeps"; docs/analysis.md):
-- one run of model per point of spec's parameters (as the REPL's sweep{}:
-- every combination, or mode = "list"), run = {options}, set = {overrides
-- of every point}, each = function(res, point, i) -> value (what is kept of
-- a point instead of its result), out = "dir/p%d.csv" (each point's result
-- written there by rank 0, not kept). Under mpirun with P processes the
-- points are split over the ranks in contiguous shares, every rank runs its
-- own, and rank 0 gathers them in point order and returns the list; the
-- other ranks return nil. With one process, the same list.
function analysis.sweep(model, spec)
  local mpi = core.mpi()
  local P, rank = mpi.size, mpi.rank
  local ok, o, file, ropts, points, keys = pcall(prepare, model, spec)
  if P > 1 then -- every rank checks alike: the lowest failing one reports
    local first = core.mpi_first_failure(not ok)
    if first >= 0 and first ~= rank then core.mpi_wait_end(first) end
    if not ok then end_all(o, mpi) end
  end
  if not ok then error(o, 0) end
  local N = #points
  -- this rank's points: floor(N r / P) + 1 .. floor(N (r + 1) / P)
  local function share(r) return N * r // P + 1, N * (r + 1) // P end
  local S = { model = model, o = o, file = file, ropts = ropts, points = points, keys = keys,
              P = P, rank = rank, keep_result = file ~= nil or o.each == nil }
  S.list = setmetatable({ labels = {}, points = {}, files = file and {} or nil }, { __name = "lied.Sweep",
    __tostring = function(l) return string.format("sweep of %d points", #l.labels) end })
  local function work()
    local mine, first, last = {}, share(rank)
    for i = first, last do
      local entry = sweep_point(S, i)
      if rank == 0 then sweep_take(S, i, entry) else mine[#mine + 1] = entry end
    end
    if P == 1 then return S.list end
    if rank ~= 0 then
      sweep_send(mine)
      return nil
    end
    for r = 1, P - 1 do sweep_receive(S, r, share(r)) end
    return S.list
  end
  if P == 1 then return work() end
  -- under mpirun a failure on one rank ends every rank (docs/distributed.md)
  local okw, r = pcall(work)
  if okw then return r end
  end_all(r, mpi)
end

return analysis
