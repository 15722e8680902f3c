-- lied.cli: the command line (design.md section 6). main(args) returns the
-- exit status: 0 success, 1 model or simulation error, 2 bad usage.
local lied = require "lied"

local cli = {}

local usage = [[
usage: lied                              start the interactive REPL
       lied FILE.lua [args...]           run a Lua script with lied preloaded
       lied run FILE.lua [options]       simulate the model FILE.lua returns
       lied info FILE.lua [--set P=V]    model tree, counts, sections, schedule
       lied vars FILE.lua [PATTERN]      variable names with units
       lied --help | --version

run options:
  --start T0         start time (default: the model's experiment, else 0)
  --stop T           stop time (default: the model's experiment, else 1)
  --solver NAME      default rk4; %s
  --dt H             fixed step (default (stop - start) / 1000); adaptive
                     solvers: the first step (default: estimated)
  --tol TOL          adaptive solvers: relative and absolute tolerance (default 1e-6);
                     implicit solvers: also the Newton tolerance
  --rtol R, --atol A set the relative or absolute tolerance alone
  --hmax H           adaptive solvers: largest step (default stop - start)
  --interval DT      output interval (default: a multiple of dt near (stop-start)/500;
                     adaptive: (stop-start)/500); 'step': every accepted step
  --vars LIST        comma-separated names or glob patterns (default: all states)
  --out PATH         PATH.csv, PATH.mat (MAT v4, Modelica result layout),
                     tcp:[HOST:]PORT (stream rows to TCP clients; host 127.0.0.1),
                     '-' for CSV on stdout (default), or 'none'; repeatable
  --clients N        with tcp: wait for N clients before starting
  --set PATH=VALUE   override a parameter (repeatable): n=1000, crab.body1.m=2
  --stats            print run statistics on stderr (steps, rejections, evaluations,
                     Jacobians, factorisations, Newton iterations)
  --no-fuse          fixed-step explicit solvers on models of independent copies
                     (e.g. n crane crabs) step over the whole state vector instead
                     of chunk by chunk of copies (same results; for comparison)
  --no-lanes         fused steps run the blocks copy by copy instead of in their
                     lane forms over groups of 32 copies (same results; for comparison)
  A progress bar shows on stderr when it is a terminal and a run takes over 1 s;
  Ctrl-C stops a run and keeps the rows so far (every output stays valid).

Exit status: 0 success, 1 model or simulation error, 2 bad usage.]]

local function solver_names()
  local t = {}
  for _, s in ipairs(lied.core.solvers()) do t[#t + 1] = s.name end
  return table.concat(t, ", ")
end

-- The solver list of --help: fixed-step explicit, then the others by kind.
local function solver_usage()
  local groups, order = {}, {}
  for _, s in ipairs(lied.core.solvers()) do
    local kind = (s.adaptive and "adaptive " or "fixed-step ") .. (s.implicit and "implicit" or "explicit")
    if not groups[kind] then groups[kind] = {}; order[#order + 1] = kind end
    table.insert(groups[kind], s.name)
  end
  local lines = {}
  for i, kind in ipairs(order) do
    lines[i] = string.format("%s%s: %s", i == 1 and "" or string.rep(" ", 34), kind,
      table.concat(groups[kind], ", "))
  end
  return table.concat(lines, "\n")
end

function cli.usage()
  return string.format(usage, solver_usage())
end

-- Error handler: the message alone (it names file:line); the Lua traceback
-- too when LIED_DEBUG is set.
function cli.traceback(e)
  if os.getenv("LIED_DEBUG") then return debug.traceback(tostring(e), 2) end
  return tostring(e)
end

local UsageError = {}
local function usage_error(msg)
  error(setmetatable({ msg = msg }, UsageError), 0)
end

-- Load a model file: it must return a model (or a component).
function cli.load_model(path)
  local chunk, err = loadfile(path)
  if not chunk then
    local f = io.open(path, "r")
    if not f then usage_error("cannot open " .. path) end
    f:close()
    error(err, 0)
  end
  local ok, model = xpcall(chunk, cli.traceback)
  if not ok then error(model, 0) end
  if not lied.ismodel(model) then
    error(string.format("%s: the file must return a model (lied.model \"Name\" {...}), got %s",
      path, type(model)), 0)
  end
  return model
end

local function parse_number(opt, v)
  local n = tonumber(v)
  if not n then usage_error(string.format("%s expects a number, got '%s'", opt, tostring(v))) end
  return n
end

local function parse_set(v, sets)
  local k, val = (v or ""):match("^([%w_%.%[%]]+)=(.+)$")
  if not k then usage_error("--set expects PATH=VALUE, got '" .. tostring(v) .. "'") end
  local n = tonumber(val)
  if not n then usage_error("--set " .. k .. ": value must be a number, got '" .. val .. "'") end
  if math.type(n) == "float" and n == math.floor(n) and math.abs(n) < 2^53 then n = math.tointeger(n) end
  sets[k] = n
end

-- Parse options after the file name.
local function parse_opts(args, i, allowed)
  local o, sets, positional = {}, {}, {}
  while i <= #args do
    local a = args[i]
    local name, inline = a:match("^(%-%-[%w%-]+)=(.*)$")
    name = name or a
    local function value()
      if inline then return inline end
      i = i + 1
      if args[i] == nil then usage_error(name .. " needs a value") end
      return args[i]
    end
    if name:sub(1, 2) ~= "--" then
      positional[#positional + 1] = a
    elseif not allowed[name] then
      usage_error("unknown option " .. name)
    elseif name == "--set" then
      parse_set(value(), sets)
    elseif name == "--stats" then
      o.stats = true
    elseif name == "--no-fuse" then
      o.fuse = false
    elseif name == "--no-lanes" then
      o.lanes = false
    elseif name == "--out" then
      o.out = o.out or {}
      o.out[#o.out + 1] = value()
    elseif name == "--solver" or name == "--vars" then
      o[name:sub(3)] = value()
    elseif name == "--interval" then
      local v = value()
      o.interval = v == "step" and v or parse_number(name, v)
    else
      o[name:sub(3)] = parse_number(name, value())
    end
    i = i + 1
  end
  return o, sets, positional
end

local run_opts = { ["--start"] = true, ["--stop"] = true, ["--solver"] = true, ["--dt"] = true,
                   ["--interval"] = true, ["--vars"] = true, ["--out"] = true, ["--set"] = true,
                   ["--stats"] = true, ["--clients"] = true, ["--tol"] = true, ["--rtol"] = true,
                   ["--atol"] = true, ["--hmax"] = true, ["--no-fuse"] = true,
                   ["--no-lanes"] = true }

local function cmd_run(args)
  local file = args[2]
  if not file or file:sub(1, 2) == "--" then usage_error("lied run: missing FILE.lua") end
  local o, sets, pos = parse_opts(args, 3, run_opts)
  if #pos > 0 then usage_error("lied run: unexpected argument '" .. pos[1] .. "'") end
  for _, out in ipairs(o.out or {}) do
    if out ~= "-" and out ~= "none" and not out:match("%.csv$") and not out:match("%.mat$")
        and not out:match("^tcp:") then
      usage_error("--out: use a .csv or .mat file, tcp:PORT, '-' or 'none' (got '" .. out .. "')")
    end
  end
  if o.clients and (o.clients < 0 or o.clients ~= math.floor(o.clients)) then
    usage_error("--clients expects a whole number >= 0")
  end
  if o.solver then
    local ok = false
    for _, s in ipairs(lied.core.solvers()) do ok = ok or s.name == o.solver end
    if not ok then usage_error("unknown solver '" .. o.solver .. "' (available: " .. solver_names() .. ")") end
  end
  for _, k in ipairs { "dt", "interval", "tol", "rtol", "atol", "hmax" } do
    if o[k] and o[k] ~= "step" and not (o[k] > 0) then usage_error("--" .. k .. " must be positive") end
  end
  local model = cli.load_model(file)
  local exp = {}
  for k, v in pairs(model.experiment or {}) do exp[k] = v end
  for _, k in ipairs { "start", "stop", "dt", "interval", "solver", "vars", "tol", "rtol", "atol", "hmax" } do
    if o[k] ~= nil then exp[k] = o[k] end
  end
  if (exp.stop or 1) <= (exp.start or 0) then
    usage_error(string.format("stop time %s must be after start time %s", exp.stop or 1, exp.start or 0))
  end
  exp.out = o.out and (#o.out == 1 and o.out[1] or o.out) or "-"
  exp.clients = o.clients
  exp.fuse = o.fuse
  exp.lanes = o.lanes
  exp.memory = false
  local built = lied.build(model, sets)
  local _, stats, err = built:run(exp)
  if o.stats then
    local info = built:info()
    io.stderr:write(string.format(
      "instantiate %.6f s, schedule %.6f s, run %.6f s, steps %d, evaluations %d, " ..
      "factorisations %d, outputs %d, t_end %.17g\n",
      info.t_instantiate, info.t_schedule, stats.wall, stats.steps, stats.rhs,
      stats.factorisations, stats.outputs, stats.t_end))
    io.stderr:write(string.format("solver %s: steps %d, rejected %d, evaluations %d", exp.solver or "rk4",
      stats.steps, stats.rejected, stats.rhs))
    if stats.jacobians > 0 or stats.colours > 0 then
      io.stderr:write(string.format(" (%d for Jacobians), Jacobians %d (%d colours, %d nonzeros), " ..
        "LU factorisations %d, Newton iterations %d (%d failures)", stats.jac_rhs, stats.jacobians,
        stats.colours, stats.jac_nnz, stats.lu, stats.newton, stats.newton_fails))
    end
    io.stderr:write("\n")
    if stats.fused then
      io.stderr:write(string.format("fused steps: chunks of %d copies, lane form %s\n", 32,
        stats.lanes and "yes" or ("no (" .. (stats.no_lanes or "?") .. ")")))
    end
  end
  if err then error(err, 0) end
  if stats.interrupted then
    io.stderr:write(string.format("lied: interrupted at t = %.17g\n", stats.t_end))
    return 1
  end
  return 0
end

-- Print the declared tree from the flattened spec list.
local function print_tree(specs, out)
  local depth = {}
  for i, s in ipairs(specs) do
    local d = s.parent > 0 and depth[s.parent] + 1 or 0
    depth[i] = d
    local name = s.name
    if s.array then name = string.format("%s[1..%d]", name, s.count) end
    local what = s.class and (s.class.domain .. "." .. s.class.name) or "model"
    out:write(string.rep("  ", d), name, "  (", what, ")\n")
  end
end

local function cmd_info(args)
  local file = args[2]
  if not file or file:sub(1, 2) == "--" then usage_error("lied info: missing FILE.lua") end
  local _, sets, pos = parse_opts(args, 3, { ["--set"] = true })
  if #pos > 0 then usage_error("lied info: unexpected argument '" .. pos[1] .. "'") end
  local model = cli.load_model(file)
  local specs = lied.flatten(model, sets)
  local built = lied.core.build(specs)
  local i = built:info(true)
  local out = io.stdout
  out:write("model ", model.name, "\n\ntree:\n")
  print_tree(specs, out)
  out:write("\ncounts:\n")
  out:write(string.format("  components     %d (%d declared)\n", i.components, i.declared))
  out:write(string.format("  blocks         %d\n", i.blocks))
  out:write(string.format("  states         %d\n", i.states))
  out:write(string.format("  tearing pairs  %d\n", i.tearing_pairs))
  out:write(string.format("  sections       %d (%d batches, %d with a constant matrix)\n",
    i.sections, i.section_batches, i.constant_sections))
  if i.column_blocks_all > 0 then
    out:write(string.format("  probing        %d member runs in the column passes (%d if every pass ran every member)\n",
      i.column_blocks, i.column_blocks_all))
  end
  out:write("\nsections by size:\n")
  local any = false
  for k = 1, 64 do
    if i.section_sizes[k] then
      any = true
      out:write(string.format("  size %-3s%s %d\n", k == 64 and ">=64" or tostring(k),
        k == 64 and "" or "", i.section_sizes[k]))
    end
  end
  if not any then out:write("  (none)\n") end
  out:write("\nschedule:\n")
  out:write(string.format("  constant  %d blocks in %d steps (run once)\n", i.constant_blocks, i.constant_steps))
  out:write(string.format("  dynamic   %d blocks in %d steps (every evaluation)\n", i.dynamic_blocks, i.dynamic_steps))
  out:write(string.format("  output    %d blocks in %d steps (output points only)\n", i.output_blocks, i.output_steps))
  if i.copies > 0 then
    out:write(string.format("  graph     %d nodes, %d edges for one of %d independent copies, which schedules them all\n",
      i.graph_nodes // i.copies, i.graph_edges // i.copies, i.copies))
    out:write(string.format("            (the model: %d block instances, %d dependencies; freed after scheduling)\n",
      i.graph_nodes, i.graph_edges))
  else
    out:write(string.format("  graph     %d nodes, %d edges (freed after scheduling)\n", i.graph_nodes, i.graph_edges))
  end
  out:write(string.format("  memory    %.1f MiB of instances in arenas (%d bytes per component on average)\n",
    i.instance_bytes / 1048576, i.components > 0 and i.instance_bytes // i.components or 0))
  out:write(string.format("  chunked   %s\n", i.chunked and "yes (independent copies: evaluated chunk by chunk; fixed-step explicit solvers take fused steps)" or "no"))
  if i.chunked then
    out:write(string.format("  lanes     %s\n", i.lanes and "yes (fused steps evaluate 32 copies per block call, in lane form)"
      or ("no (" .. (i.no_lanes or "out of memory") .. ")")))
  end
  out:write(string.format("  time      instantiate %.3f s, schedule %.3f s\n", i.t_instantiate, i.t_schedule))
  local jac = i.jacobian
  if jac then
    out:write("\njacobian (structural sparsity of the derivatives, for implicit solvers):\n")
    local n = i.states
    out:write(string.format("  nonzeros  %d of %d x %d (%.3g%%), at most %d per row\n", jac.nnz, n, n,
      n > 0 and 100 * jac.nnz / (n * n) or 0, jac.max_row))
    out:write(string.format("  colours   %d (derivative evaluations per finite-difference Jacobian)\n",
      jac.colours))
    if jac.pattern then
      local names = jac.states
      local w = 0
      for _, nm in ipairs(names) do w = math.max(w, #nm) end
      out:write("  pattern   (row: derivative of the state, column: state it depends on)\n")
      for r, row in ipairs(jac.pattern) do
        out:write(string.format("    %-" .. w .. "s  %s\n", names[r] or "", row))
      end
    end
  end
  return 0
end

local function cmd_vars(args)
  local file = args[2]
  if not file or file:sub(1, 2) == "--" then usage_error("lied vars: missing FILE.lua") end
  local _, sets, pos = parse_opts(args, 3, { ["--set"] = true })
  if #pos > 1 then usage_error("lied vars: unexpected argument '" .. pos[2] .. "'") end
  local model = cli.load_model(file)
  local built = lied.build(model, sets)
  local pat = pos[1]
  local vars = built:vars(pat)
  if pat and #vars == 0 then error("no variable matches '" .. pat .. "'", 0) end
  local w = 0
  for _, v in ipairs(vars) do if #v.name > w then w = #v.name end end
  for _, v in ipairs(vars) do
    io.stdout:write(string.format("%-" .. w .. "s  %-8s %s\n", v.name,
      v.unit ~= "" and v.unit or "-", v.kind))
  end
  return 0
end

-- Run a script like `lua FILE args...`, with `lied` as a global.
local function cmd_script(args)
  local file = args[1]
  local chunk, err = loadfile(file)
  if not chunk then
    local f = io.open(file, "r")
    if not f then usage_error("cannot open " .. file) end
    f:close()
    error(err, 0)
  end
  local argt = { [0] = file }
  for k = 2, #args do argt[k - 1] = args[k] end
  _G.arg = argt
  _G.lied = lied
  lied.script = file
  local ok, e = xpcall(chunk, cli.traceback, table.unpack(argt))
  if not ok then error(e, 0) end
  return 0
end

function cli.main(args)
  local ok, code = xpcall(function()
    local a = args[1]
    if a == "--help" or a == "-h" then
      io.stdout:write(cli.usage(), "\n")
      return 0
    elseif a == "--version" then
      io.stdout:write("lied ", lied.version, " (", _VERSION, ")\n")
      return 0
    elseif a == "run" then
      return cmd_run(args)
    elseif a == "info" then
      return cmd_info(args)
    elseif a == "vars" then
      return cmd_vars(args)
    elseif a and a:sub(1, 1) == "-" then
      usage_error("unknown option " .. a)
    else
      return cmd_script(args)
    end
  end, function(e)
    if getmetatable(e) == UsageError then return e end
    return e
  end)
  if ok then return code or 0 end
  if getmetatable(code) == UsageError then
    io.stderr:write("lied: ", code.msg, "\n(see lied --help)\n")
    return 2
  end
  io.stderr:write("lied: ", tostring(code), "\n")
  return 1
end

return cli
