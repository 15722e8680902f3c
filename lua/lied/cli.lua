-- lied.cli: the command line (docs/repl.md, lied --help). main(args) returns the
-- exit status: 0 success, 1 model or simulation error, 2 bad usage.
local lied = require "lied"

local cli = {}

local analysis_options = [[
steady and linearize options (docs/analysis.md):
  --set P=V          a parameter override (repeatable)
  --at T             start from the states at time T of a run (the experiment's solver,
                     --solver, --dt, --start), not from the start values
  --fixed NAME       (steady) hold this state at its value (repeatable, or a comma list):
                     what fixes a conserved quantity (the water in the vessels)
  --tol TOL          (steady) convergence tolerance (default 1e-10)
  --maxit N          (steady) pseudo-time steps at most (default 500)
  --inputs LIST      (linearize) parameters of instances as inputs: src.value,... (B, D)
  --outputs LIST     (linearize) variables as outputs: t1.level,... (C, D)
  --eig              (linearize) also the eigenvalues of A
]]

local usage = [[
usage: lied                              start the interactive REPL
       lied FILE.lua [args...]           run a Lua script with lied preloaded; a model
                                         file (lied.main) takes [PLOT.png] [run options]
       lied run FILE.lua [options]       simulate the model FILE.lua returns
       lied info FILE.lua [--set P=V]    model tree, counts, sections, schedule
       lied vars FILE.lua [PATTERN]      variable names with units
       lied params FILE.lua [PATTERN]    parameters of the instances with values
       lied steady FILE.lua [options]    the steady state: der(x) = 0
       lied linearize FILE.lua [options] A (B, C, D) as CSV, eigenvalues
       lied help [COMMAND]               this text, or a command's (lied run --help)
       lied --help | --version

]] .. analysis_options .. [[

Lua interpreter options (as lua5.4's), before FILE.lua:
  -e STAT            execute the Lua statement STAT (repeatable)
  -l NAME            require module NAME into the global NAME
  -i                 enter the REPL after running the script and statements
  -v                 print the version
  -                  run the script from standard input
  --                 stop handling options
  require searches the script's own directory first, then lied's modules,
  the directories of LIED_PATH (colon-separated), then LUA_PATH / LUA_CPATH.

run options (of lied run, and of a model file run as a script; an option the
run would not use is refused: --tol with a fixed-step explicit solver, --hmax
without an adaptive one, --no-fuse / --no-lanes with an adaptive or implicit
one, --clients without a tcp output, --params without a CSV output):
%s
  --params           CSV outputs start with the parameters, '# name = value [unit]'
                     (MAT files hold them in data_1 always)
  --stats            print run statistics on stderr (steps, rejections, evaluations,
                     Jacobians, factorisations, Newton iterations)
  --check            compare the fast paths with the plain ones bit for bit
                     (lied run --help; docs/repl.md); exit 1 on a difference
  A progress bar shows on stderr when it is a terminal and a run takes over 1 s;
  Ctrl-C stops a run and keeps the rows so far (every output stays valid).
  An option that takes one value is given once; --out, --set, --fixed, --inputs,
  --outputs and -e repeat.

Exit status: 0 success, 1 model or simulation error, 2 bad usage.]]

-- The run options of the command line (lied.core.run_options with an arg):
-- flag ("--dt", "--no-fuse") -> option.
local flags, flag_order = {}, {}
for _, o in ipairs(lied.core.run_options) do
  if o.arg then
    local flag = (o.arg == "" and "--no-" or "--") .. o.name
    flags[flag] = o
    flag_order[#flag_order + 1] = flag
  end
end

-- The solver list of --help: fixed-step explicit, then the others by kind.
local function solver_lines()
  local groups, order = {}, {}
  for _, s in ipairs(lied.core.solvers()) do
    local kind = (s.adaptive and "adaptive " or "fixed-step ") .. (s.implicit and "implicit" or "explicit")
    if not groups[kind] then groups[kind] = {}; order[#order + 1] = kind end
    table.insert(groups[kind], s.name)
  end
  local lines = {}
  for i, kind in ipairs(order) do lines[i] = kind .. ": " .. table.concat(groups[kind], ", ") end
  return lines
end

-- Words of text in lines of at most width columns.
local function wrap(text, width)
  local lines, line = {}, ""
  for word in text:gmatch("%S+") do
    if line ~= "" and #line + 1 + #word > width then lines[#lines + 1] = line; line = word
    else line = line == "" and word or (line .. " " .. word) end
  end
  lines[#lines + 1] = line
  return lines
end

-- The option lines of --help, from lied.core.run_options.
local function options_usage()
  local out, indent = {}, string.rep(" ", 21)
  for _, flag in ipairs(flag_order) do
    local o = flags[flag]
    local head = "  " .. flag .. (o.arg ~= "" and (" " .. o.arg) or "")
    local lines = wrap(o.doc, 80 - #indent)
    if o.name == "solver" then
      for _, l in ipairs(solver_lines()) do lines[#lines + 1] = l end
    end
    for i, l in ipairs(lines) do
      if i == 1 and #head < #indent then
        out[#out + 1] = head .. string.rep(" ", #indent - #head) .. l
      else
        if i == 1 then out[#out + 1] = head end
        out[#out + 1] = indent .. l
      end
    end
  end
  return table.concat(out, "\n")
end

-- Built with MPI: lied run under mpirun (docs/distributed.md).
local mpi_usage = [[

Under mpirun (lied built with MPI; docs/distributed.md):
  mpirun -np P lied run FILE.lua [options]
                     an ensemble (one array of independent copies at the top level)
                     split over P processes, each building and running its share;
                     rank 0 writes the outputs in copy order, the same as one process;
                     coupled arrays (only arrays at the top level, linked by lied.each)
                     likewise, with ghost copies of the neighbours' (fixed-step explicit
                     solvers)
  mpirun -np P lied SCRIPT.lua [args...]
                     a script on every rank; its lied.sweep(model, {...}) calls split
                     their points over the ranks and return the results on rank 0]]

function cli.usage()
  return string.format(usage, options_usage()) .. (lied.core.mpi().built and "\n" .. mpi_usage or "")
end

-- Each command's own help: lied help CMD, lied CMD --help.
local command_usage = {
  run = function()
    return "usage: lied run FILE.lua [options]\n\n" ..
      "Simulate the model FILE.lua returns; CSV on standard output unless --out says otherwise.\n\n" ..
      "options:\n" .. options_usage() .. "\n" ..
      "  --params           CSV outputs start with the parameters, '# name = value [unit]'\n" ..
      "                     (MAT files hold them in data_1 always)\n" ..
      "  --stats            print run statistics on stderr\n" ..
      "  --check            run the model along its fast paths (lanes, fused steps and\n" ..
      "                     waves, skew, window, replicated scheduling, threads) and along\n" ..
      "                     the plain ones, compare every variable (or --vars) at every\n" ..
      "                     output point bit for bit and report the first difference with\n" ..
      "                     the path that makes it; writes no outputs (docs/repl.md)\n\n" ..
      "Exit status: 0 success, 1 model or simulation error (--check: a difference, or runs\n" ..
      "that fail), 2 bad usage." ..
      (lied.core.mpi().built and "\n" .. mpi_usage or "")
  end,
  info = function()
    return "usage: lied info FILE.lua [--set P=V]...\n\n" ..
      "Print the model's tree, counts, sections by size, schedule and Jacobian sparsity."
  end,
  vars = function()
    return "usage: lied vars FILE.lua [PATTERN] [--set P=V]...\n\n" ..
      "List the variables (names, units, kinds); PATTERN is a glob with * and ?."
  end,
  params = function()
    return "usage: lied params FILE.lua [PATTERN] [--set P=V]...\n\n" ..
      "List the parameters of the instances with their values and units; PATTERN is a glob\n" ..
      "with * and ?."
  end,
  steady = function()
    return "usage: lied steady FILE.lua [options]\n\n" ..
      "The steady state, der(x) = 0 (docs/analysis.md); options --set, --at, --solver, --dt,\n" ..
      "--start, --fixed, --tol, --maxit:\n\n" .. analysis_options
  end,
  linearize = function()
    return "usage: lied linearize FILE.lua [options]\n\n" ..
      "The linearisation A (B, C, D) as CSV blocks, the eigenvalues with --eig\n" ..
      "(docs/analysis.md); options --set, --at, --solver, --dt, --start, --inputs, --outputs,\n" ..
      "--eig:\n\n" .. analysis_options
  end,
  help = function()
    return "usage: lied help [COMMAND]\n\n" ..
      "Commands: run, info, vars, params, steady, linearize (lied help run)."
  end,
}
cli.command_usage = command_usage

local function wants_help(args)
  for k = 2, #args do
    if args[k] == "--help" or args[k] == "-h" then return true end
  end
  return false
end

-- Error handler: the error alone (a message naming file:line, or an error
-- object of lied.core); with the Lua traceback when LIED_DEBUG is set.
function cli.traceback(e)
  if not os.getenv("LIED_DEBUG") then return e end
  local tb = debug.traceback(lied.core.errtext(e), 2)
  return lied.error_kind(e) == "usage" and lied.core.error("usage", tb) or tb
end

local function usage_error(msg)
  error(lied.core.error("usage", msg), 0)
end

-- `require` searches the directory of a script or model file first (a
-- searcher after package.preload): examples/scaling.lua finds
-- examples/cranecrab.lua. The files being run or loaded are skipped, so a
-- file may require a module of its own name from further down the path
-- (examples/cranecrab.lua requires the stdlib's cranecrab).
local script_dirs, skip = {}, {}
local function script_searcher(name)
  local file = name:gsub("%.", "/")
  for _, dir in ipairs(script_dirs) do
    for _, path in ipairs({ dir .. "/" .. file .. ".lua", dir .. "/" .. file .. "/init.lua" }) do
      local f = not skip[path] and io.open(path, "r")
      if f then
        f:close()
        local chunk, err = loadfile(path)
        if not chunk then
          error(string.format("error loading module '%s' from file '%s':\n\t%s", name, path, err), 0)
        end
        return function(...)
          skip[path] = true
          local r = table.pack(pcall(chunk, ...))
          skip[path] = nil
          if not r[1] then error(r[2], 0) end
          return table.unpack(r, 2, r.n)
        end, path
      end
    end
  end
  return "\n\tno file in the script directories"
end
local function add_script_dir(path)
  local dir, base = path:match("^(.*)/([^/]*)$")
  if not dir then dir, base = ".", path elseif dir == "" then dir = "/" end
  skip[dir .. "/" .. base] = true
  for _, d in ipairs(script_dirs) do if d == dir then return end end
  if #script_dirs == 0 then table.insert(package.searchers, 2, script_searcher) end
  table.insert(script_dirs, 1, dir)
end
cli.add_script_dir = add_script_dir

-- The chunk of a Lua file: a usage error when it cannot be opened, the
-- syntax error (file:line) when it does not compile.
local function load_chunk(path)
  add_script_dir(path)
  local chunk, err = loadfile(path, "t") -- source text only: bytecode is not verified
  if not chunk then
    local f = io.open(path, "r")
    if not f then usage_error("cannot open " .. path) end
    f:close()
    error(err, 0)
  end
  return chunk
end

-- Load a model file: it must return a model (or a component).
function cli.load_model(path)
  local chunk = load_chunk(path)
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
  local k, val = (v or ""):match("^([^=%s]+)=(.+)$") -- the path is checked where it is resolved
  if not k then usage_error("--set expects PATH=VALUE, got '" .. tostring(v) .. "'") end
  local n = tonumber(val)
  if not n then usage_error("--set " .. k .. ": value must be a number, got '" .. val .. "'") end
  if math.type(n) == "float" and n == math.floor(n) and math.abs(n) < 2^53 then n = math.tointeger(n) end
  if sets[k] ~= nil then -- which one was meant? (the last was taken silently)
    usage_error(string.format("--set %s is given twice (%s, then %s): give it once", k, tostring(sets[k]), val))
  end
  sets[k] = n
end

-- An option that takes one value given again: which one was meant? (the
-- last was taken silently: --vars a --vars b recorded b alone)
local function given_once(o, key, name, new)
  if o[key] == nil then return end
  local function show(v) return type(v) == "string" and "'" .. v .. "'" or tostring(v) end
  usage_error(string.format("%s is given twice (%s, then %s): give it once%s", name, show(o[key]),
    show(new), (key == "vars" or key == "steady") and " (a comma list names several)" or ""))
end

-- Parse options after the file name: run options by their type (the C side
-- checks the values), --set, --stats; allowed: the flags taken.
local function parse_opts(args, i, allowed)
  local o, sets, positional, stats = {}, {}, {}, false
  while i <= #args do
    local a = args[i]
    local name, inline = a:match("^(%-%-[%w%-_]+)=(.*)$")
    name = name or a
    local function value()
      if inline then return inline end
      i = i + 1
      if args[i] == nil then usage_error(name .. " needs a value") end
      return args[i]
    end
    local opt = flags[name]
    if name:sub(1, 2) ~= "--" then
      positional[#positional + 1] = a
    elseif not allowed[name] then
      local names = {}
      for f in pairs(allowed) do names[#names + 1] = f end
      table.sort(names)
      local _, near = lied.core.suggest(name, names)
      usage_error("unknown option " .. name .. near)
    elseif name == "--stats" then
      stats = true
    elseif name == "--params" then
      o.params = true
    elseif name == "--check" then
      o.check = true
    elseif name == "--set" then
      parse_set(value(), sets)
    elseif opt.arg == "" then
      o[opt.name] = false
    elseif opt.type == "string or list of strings" then
      o[opt.name] = o[opt.name] or {}
      table.insert(o[opt.name], value())
    elseif opt.type == "string" then
      local v = value()
      given_once(o, opt.name, name, v)
      o[opt.name] = v
    else
      local v = value()
      v = (v == "step" and opt.type:find('"step"', 1, true)) and v or parse_number(name, v)
      given_once(o, opt.name, name, v)
      o[opt.name] = v
    end
    i = i + 1
  end
  return o, sets, positional, stats
end

local run_flags = { ["--stats"] = true, ["--params"] = true, ["--check"] = true }
for flag in pairs(flags) do run_flags[flag] = true end

-- lied run FILE --check [options]: lied.check's report on stdout; exit
-- status 0 when every run agrees with the plain one and runs to its end, 1
-- otherwise (a run that fails is a simulation error, as without --check).
function cli.check(model, o, sets, stats_wanted)
  o.check = nil
  if o.out then usage_error("lied run --check writes no outputs: leave out --out") end
  if o.params then usage_error("lied run --check writes no outputs: leave out --params") end
  if stats_wanted then
    usage_error("lied run --check: --stats is not used (the report names the paths)")
  end
  for _, k in ipairs { "fuse", "lanes" } do
    if o[k] == false then
      usage_error("lied run --check: --no-" .. k .. " is not used (the check turns every path " ..
        "on and off itself)")
    end
  end
  local exp = { out = "none" }
  for k, v in pairs(model.experiment or {}) do exp[k] = v end
  for k, v in pairs(o) do exp[k] = v end
  cli.check_used(o, exp, "lied run --check")
  local opts = {}
  for k, v in pairs(o) do opts[k] = v end
  opts.set = sets
  local report = require("lied.check").run(model, opts)
  io.stdout:write(report.text, "\n")
  return report.ok and not report.failed and 0 or 1
end

-- Options given on the command line (o) that the run (exp: o over the
-- model's experiment) would not use are refused, not ignored: a tolerance or
-- a largest step for a fixed-step explicit solver, --no-fuse / --no-lanes
-- for a solver that takes no fused steps, --clients without a tcp output,
-- --params without a CSV output. (An experiment's own options are the
-- model's defaults and stay quiet.)
function cli.check_used(o, exp, cmd)
  lied.core.check_run_options(exp) -- the values first: "clients must be from 0 to 1024"
  local solver = exp.solver or "rk4"
  local info
  for _, sv in ipairs(lied.core.solvers()) do if sv.name == solver then info = sv end end
  local function refuse(flag, why)
    usage_error(string.format("%s: %s is not used %s", cmd, flag, why))
  end
  if info then
    local kind = info.adaptive and "an adaptive solver" or (info.implicit and "an implicit fixed-step solver"
      or "a fixed-step explicit solver")
    if not info.adaptive and not info.implicit then
      for _, k in ipairs { "tol", "rtol", "atol" } do
        if o[k] ~= nil then
          refuse("--" .. k, string.format("by %s (%s; the adaptive and implicit solvers take a tolerance)", solver, kind))
        end
      end
    end
    if not info.adaptive and o.hmax ~= nil then
      refuse("--hmax", string.format("by %s (%s; the adaptive solvers take a largest step)", solver, kind))
    end
    if (info.adaptive or info.implicit) then
      for _, k in ipairs { "fuse", "lanes" } do
        if o[k] == false then
          refuse("--no-" .. k, string.format("by %s (%s: only fixed-step explicit solvers take fused steps in lanes)", solver, kind))
        end
      end
    end
  end
  local outs = exp.out or {}
  if type(outs) == "string" then outs = { outs } end
  local tcp, csv = false, false
  for _, out in ipairs(outs) do
    tcp = tcp or tostring(out):match("^tcp:") ~= nil
    csv = csv or out == "-" or tostring(out):lower():match("%.csv$") ~= nil
  end
  if o.clients ~= nil and not tcp then refuse("--clients", "without a tcp:PORT output (--out tcp:PORT)") end
  if o.params and not csv then
    refuse("--params", "without a CSV output (MAT files hold the parameters always; --out none writes none)")
  end
end

-- lied run --stats: the run's statistics on stderr, the lines collected and
-- written at once (stderr is unbuffered: under mpirun another rank's lines
-- cannot come between the parts of one), each under mpirun prefixed with
-- "rank R of P: ".
local function write_stats(built, exp, stats)
  local info, out = built:info(), {}
  local function put(...) out[#out + 1] = string.format(...) end
  put("instantiate %.6f s, schedule %.6f s, run %.6f s, steps %d, evaluations %d, " ..
    "factorisations %d, outputs %d, t_end %.17g\n",
    info.t_instantiate, info.t_schedule, stats.wall, stats.steps, stats.rhs,
    stats.factorisations, stats.outputs, stats.t_end)
  if stats.steady_states then
    put("steady start: %d states solved, %d pseudo-time steps, %d evaluations, " ..
      "largest |der| %.3g, %.6f s\n", stats.steady_states, stats.steady_steps,
      stats.steady_rhs, stats.steady_residual, stats.steady_wall)
  end
  put("solver %s: steps %d, rejected %d, evaluations %d", exp.solver or "rk4", stats.steps,
    stats.rejected, stats.rhs)
  if stats.jacobians > 0 or stats.colours > 0 then
    put(" (%d for Jacobians), Jacobians %d (%d colours, %d nonzeros), " ..
      "LU factorisations %d, Newton iterations %d (%d failures)", stats.jac_rhs, stats.jacobians,
      stats.colours, stats.jac_nnz, stats.lu, stats.newton, stats.newton_fails)
  end
  if stats.events > 0 or stats.kinks > 0 or stats.restarts > 0 then
    put(", events %d, kinks %d, restarts %d", stats.events, stats.kinks, stats.restarts)
  end
  if stats.zero_evals > 0 then put(", zero-function evaluations %d", stats.zero_evals) end
  put("\n")
  local lanes = stats.lanes and "yes" or ("no (" .. (stats.no_lanes or "?") .. ")")
  if stats.waves and stats.waves > 0 then
    put("steps in waves: coupled arrays chunk by chunk, %d steps per sweep, " ..
      "stages %d instances apart, lane form %s\n", stats.waves, stats.wave_gap, lanes)
  elseif stats.fused then
    put("fused steps: chunks of %d copies, lane form %s\n", 32, lanes)
  end
  local threads = stats.threads or 1
  put("threads %d", threads)
  if (stats.threads_asked or 1) > threads then -- said, not silently taken (docs/parallel.md)
    put(" of %d asked (no part of this model's evaluation is large enough to share between " ..
      "threads)", stats.threads_asked)
  end
  put(", cpu %.6f s\n", stats.cpu or 0)
  local text, mpi = table.concat(out), lied.core.mpi()
  if mpi.size > 1 then
    text = text:gsub("[^\n]*\n", string.format("rank %d of %d: ", mpi.rank, mpi.size) .. "%0")
  end
  io.stderr:write(text)
end

local function cmd_run(args)
  local file = args[2]
  if not file or file:sub(1, 2) == "--" then usage_error("lied run: missing FILE.lua") end
  local o, sets, pos, stats_wanted = parse_opts(args, 3, run_flags)
  if #pos > 0 then usage_error("lied run: unexpected argument '" .. pos[1] .. "'") end
  local model = cli.load_model(file)
  if o.check then return cli.check(model, o, sets, stats_wanted) end
  local exp = {}
  for k, v in pairs(model.experiment or {}) do exp[k] = v end
  for k, v in pairs(o) do exp[k] = v end
  exp.out = o.out and (#o.out == 1 and o.out[1] or o.out) or "-"
  exp.memory = false
  cli.check_used(o, exp, "lied run")
  local mpi = lied.core.mpi()
  local built = lied.build(model, sets, mpi.size > 1 and { rank = mpi.rank, size = mpi.size } or nil)
  local _, stats, err = lied.run_experiment(model, built, o.vars, exp)
  if stats_wanted then write_stats(built, exp, stats) end
  if err then error(err, 0) end
  if stats.interrupted then
    local sig = stats.signal
    local names = { [1] = "SIGHUP", [2] = "SIGINT", [15] = "SIGTERM" }
    if sig and sig ~= 2 then
      io.stderr:write(string.format("lied: stopped by %s: interrupted at t = %.17g (the rows "
        .. "so far are written)\n", names[sig] or ("signal " .. sig), stats.t_end))
      return 128 + sig
    end
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

-- `lied CMD FILE.lua [--set P=V] [positional...]`: the model, the overrides
-- and the positional arguments (at most npos).
local function model_args(args, npos)
  local file = args[2]
  if not file or file:sub(1, 2) == "--" then usage_error("lied " .. args[1] .. ": missing FILE.lua") end
  local _, sets, pos = parse_opts(args, 3, { ["--set"] = true })
  if #pos > npos then usage_error("lied " .. args[1] .. ": unexpected argument '" .. pos[npos + 1] .. "'") end
  return cli.load_model(file), sets, pos
end

-- lied info: the counts of model:info(true)
local function info_counts(i, out)
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
  if i.sparse_sections > 0 then
    out:write(string.format("  sparse         %d section%s solved sparsely: %d unknowns (tearing variables and cut " ..
      "member outputs), %d nonzeros, %d colours, %d member runs in the column passes, %d " ..
      "members restored, not run, in the pass at zero unknowns, %d entries of the factors " ..
      "predicted (KLU's AMD order)\n",
      i.sparse_sections, i.sparse_sections == 1 and "" or "s", i.sparse_unknowns, i.sparse_nonzeros,
      i.sparse_colours, i.sparse_pass_members, i.sparse_fixed_members, i.sparse_factor_nonzeros))
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
end

-- lied info: the schedule, its graph, memory, chunks, lanes and set-up time
local function info_schedule(i, out)
  out:write("\nschedule:\n")
  out:write(string.format("  constant  %d blocks in %d steps (run once)\n", i.constant_blocks, i.constant_steps))
  out:write(string.format("  dynamic   %d blocks in %d steps (every evaluation)\n", i.dynamic_blocks, i.dynamic_steps))
  out:write(string.format("  output    %d blocks in %d steps (output points only)\n", i.output_blocks, i.output_steps))
  if i.copies > 0 then
    out:write(string.format("  graph     %d nodes, %d edges for one of %d independent copies, which schedules them all\n",
      i.graph_nodes // i.copies, i.graph_edges // i.copies, i.copies))
    out:write(string.format("            (the model: %d block instances, %d dependencies; freed after scheduling)\n",
      i.graph_nodes, i.graph_edges))
  elseif i.window > 0 then
    out:write(string.format("  graph     the model's %d nodes and %d edges scheduled from a window of %d instances per array\n",
      i.graph_nodes, i.graph_edges, i.window))
    out:write("            (coupled arrays wired alike away from their ends; freed after scheduling)\n")
  else
    out:write(string.format("  graph     %d nodes, %d edges (freed after scheduling)\n", i.graph_nodes, i.graph_edges))
  end
  out:write(string.format("  memory    %.1f MiB of instances in arenas (%d bytes per component on average)\n",
    i.instance_bytes / 1048576, i.components > 0 and i.instance_bytes // i.components or 0))
  out:write(string.format("  chunked   %s\n", i.chunked and "yes (independent copies: evaluated chunk by chunk; fixed-step explicit solvers take fused steps)"
    or (i.skew_lag > 0 and string.format("skewed (coupled arrays: evaluated chunk by chunk, each step lagging by up to %d instances%s)", i.skew_lag,
      i.wave_gap > 0 and string.format("; fixed-step explicit solvers take steps in waves, stages %d instances apart", i.wave_gap) or ""))
    or "no"))
  if i.chunked then
    out:write(string.format("  lanes     %s\n", i.lanes and "yes (fused steps evaluate 32 copies per block call, in lane form)"
      or ("no (" .. (i.no_lanes or "out of memory") .. ")")))
  elseif i.wave_gap > 0 then
    out:write(string.format("  lanes     %s\n", i.lanes and string.format("yes (waves evaluate 32 copies per block call, in lane form: " ..
      "%d steps in lanes, %d copy by copy at the arrays' ends (%d of them in lanes of one copy), %d halo reads)",
      i.lane_steps, i.end_steps, i.end_lanes, i.halos)
      or ("no (" .. (i.no_lanes or "out of memory") .. ")")))
  end
  out:write(string.format("  time      instantiate %.3f s, schedule %.3f s\n", i.t_instantiate, i.t_schedule))
end

-- lied info: the Jacobian's sparsity and colouring, its pattern when small
local function info_jacobian(i, out)
  local jac = i.jacobian
  if not jac then return end
  local n = jac.unknowns or i.states
  if jac.section_unknowns then
    out:write("\njacobian (structural sparsity of the implicit solvers' sparse formulation: the\n" ..
      string.format("  %d states, %d unknowns of the sparse sections, %d explicit cuts%s):\n", i.states,
        jac.section_unknowns, jac.cuts, (jac.partial_sums or 0) > 0 and
          string.format(";\n  %d of the cuts partial sums of wide sums", jac.partial_sums) or ""))
  else
    out:write("\njacobian (structural sparsity of the derivatives, for implicit solvers):\n")
  end
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
      local nm = names[r] or ""
      out:write("    ", nm, string.rep(" ", w - #nm), "  ", row, "\n")
    end
  end
end

local function cmd_info(args)
  local model, sets = model_args(args, 0)
  local specs = lied.flatten(model, sets)
  local built = lied.core.build(specs)
  local i = built:info(true)
  local out = io.stdout
  out:write("model ", model.name, "\n\ntree:\n")
  print_tree(specs, out)
  info_counts(i, out)
  info_schedule(i, out)
  info_jacobian(i, out)
  return 0
end

local function cmd_vars(args)
  local model, sets, pos = model_args(args, 1)
  local built = lied.build(model, sets)
  local pat = pos[1]
  local vars = built:vars(pat)
  if pat and #vars == 0 then error("no variable matches '" .. pat .. "'", 0) end
  local w = 0
  for _, v in ipairs(vars) do if #v.name > w then w = #v.name end end
  for _, v in ipairs(vars) do
    -- padded by hand: string.format's widths stop at 99
    io.stdout:write(v.name, string.rep(" ", w - #v.name), string.format("  %-8s %s\n",
      v.unit ~= "" and v.unit or "-", v.kind))
  end
  return 0
end

-- `lied steady` and `lied linearize`: their own options (see usage).
local analysis_flags = {
  ["--set"] = "set", ["--at"] = "number", ["--solver"] = "string", ["--dt"] = "number",
  ["--start"] = "number", ["--fixed"] = "list", ["--tol"] = "number", ["--maxit"] = "number",
  ["--inputs"] = "list", ["--outputs"] = "list", ["--eig"] = "flag",
}
-- The trimmed items of a comma list v (option name) added to list; a list
-- given and naming nothing (",,", " ") is refused, not read as none given.
local function list_items(list, name, v)
  local n0 = #list
  for item in v:gmatch("[^,]+") do
    item = item:match("^%s*(.-)%s*$")
    if item ~= "" then list[#list + 1] = item end
  end
  if #list == n0 then
    usage_error(string.format("%s names nothing, got '%s' (give names, comma-separated)", name, v))
  end
  return list
end

local function analysis_args(args, allowed)
  local file = args[2]
  if not file or file:sub(1, 2) == "--" then usage_error("lied " .. args[1] .. ": missing FILE.lua") end
  local o, sets, i = {}, {}, 3
  while i <= #args do
    local a = args[i]
    local name, inline = a:match("^(%-%-[%w%-_]+)=(.*)$")
    name = name or a
    local kind = allowed[name] and analysis_flags[name]
    if not kind then
      if name:sub(1, 2) ~= "--" then usage_error("lied " .. args[1] .. ": unexpected argument '" .. a .. "'") end
      local names = {}
      for f in pairs(allowed) do names[#names + 1] = f end
      table.sort(names)
      local _, near = lied.core.suggest(name, names)
      usage_error("unknown option " .. name .. near .. " (lied --help)")
    end
    local function value()
      if inline then return inline end
      i = i + 1
      if args[i] == nil then usage_error(name .. " needs a value") end
      return args[i]
    end
    local key = name:sub(3)
    if kind == "flag" then
      o[key] = true
    elseif kind == "set" then
      parse_set(value(), sets)
    elseif kind == "number" then
      local v = parse_number(name, value())
      given_once(o, key, name, v)
      o[key] = v
    elseif kind == "list" then
      o[key] = list_items(o[key] or {}, name, value())
    else
      local v = value()
      given_once(o, key, name, v)
      o[key] = v
    end
    i = i + 1
  end
  if o.at == nil then
    for _, k in ipairs { "solver", "dt", "start" } do
      if o[k] ~= nil then
        usage_error(string.format("lied %s: --%s is not used without --at (it sets the run to the time --at names)",
          args[1], k))
      end
    end
  end
  local model = cli.load_model(file)
  local opts = { set = sets, at = o.at }
  local run = {}
  for _, k in ipairs { "solver", "dt", "start" } do run[k] = o[k] end
  if next(run) then opts.run = run end
  if o.maxit then -- 1e6 is a whole number too (steady checks the range)
    o.maxit = math.tointeger(o.maxit) or usage_error("--maxit expects a whole number, got " .. tostring(o.maxit))
  end
  return model, opts, o
end

local function cmd_steady(args)
  local allowed = {}
  for _, f in ipairs { "--set", "--at", "--solver", "--dt", "--start", "--fixed", "--tol", "--maxit" } do allowed[f] = true end
  local model, opts, o = analysis_args(args, allowed)
  opts.fixed, opts.tol, opts.maxit = o.fixed, o.tol, o.maxit
  local s = require("lied.analysis").steady(model, opts)
  io.stdout:write(tostring(s), "\n")
  return 0
end

local function cmd_linearize(args)
  local allowed = {}
  for _, f in ipairs { "--set", "--at", "--solver", "--dt", "--start", "--inputs", "--outputs", "--eig" } do allowed[f] = true end
  local model, opts, o = analysis_args(args, allowed)
  opts.inputs, opts.outputs, opts.eig = o.inputs, o.outputs, o.eig or false
  local A = require "lied.analysis"
  local l = A.linearize(model, opts)
  l:csv(o.eig, function(s) io.stdout:write(s) end)
  local note = A.nonsmooth_text(l)
  if note then io.stderr:write("lied: linearize: " .. note:gsub("\n", "\nlied: linearize: ") .. "\n") end
  return 0
end

local function cmd_params(args)
  local model, sets, pos = model_args(args, 1)
  local built = lied.build(model, sets)
  local list, total = built:params(pos[1])
  if pos[1] and total == 0 then error("no parameter matches '" .. pos[1] .. "'", 0) end
  io.stdout:write(require("lied.analysis").params_text(list, total, sets))
  return 0
end

-- The arguments of a model file run as a script (`lied FILE.lua [PLOT]
-- [options]`, what lied.main takes): at most one plot file, the run options
-- of `lied run` and --set; anything else is refused. Returns the options,
-- the overrides and the plot file (or nil).
local main_flags = { ["--params"] = true }
for flag in pairs(flags) do main_flags[flag] = true end
function cli.main_args(args, file)
  local o, sets, pos = parse_opts(args or {}, 1, main_flags)
  local what = "lied " .. tostring(file or "FILE.lua")
  if #pos > 1 then usage_error(string.format("%s: unexpected argument '%s' (one plot file at most)", what, pos[2])) end
  if o.out then o.out = #o.out == 1 and o.out[1] or o.out end
  return o, sets, pos[1]
end

-- Run a script like `lua FILE args...`, with `lied` as a global.
local function cmd_script(args)
  local file = args[1]
  local chunk = load_chunk(file)
  local argt = { [0] = file }
  for k = 2, #args do argt[k - 1] = args[k] end
  _G.arg = argt
  _G.lied = lied
  lied.script = file
  local ok, e = xpcall(chunk, cli.traceback, table.unpack(argt))
  if not ok then error(e, 0) end
  return 0
end

-- The options of the Lua interpreter (lua5.4's): -e STAT, -l NAME, -i, -v,
-- then a script, "-" (standard input) or nothing. Returns the exit status and
-- whether the REPL should follow (-i, or only -v / nothing).
local function cmd_lua(args)
  local i, interactive, version, ran = 1, false, false, false
  local function need(opt)
    i = i + 1
    if args[i] == nil then usage_error(opt .. " needs an argument") end
    return args[i]
  end
  _G.lied = lied
  while args[i] do
    local a = args[i]
    if a == "-e" then
      local stat = need(a)
      local chunk, err = load(stat, "=(command line)")
      if not chunk then error(err, 0) end
      local ok, e = xpcall(chunk, cli.traceback)
      if not ok then error(e, 0) end
      ran = true
    elseif a:match("^%-e.") then
      args[i] = a:sub(3); table.insert(args, i, "-e")
      i = i - 1
    elseif a == "-l" then
      local name = need(a)
      _G[name:match("^[^-]*"):gsub("%.", "_")] = require(name)
    elseif a == "-i" then interactive = true
    elseif a == "-v" then version = true
    elseif a == "--" then i = i + 1; break
    elseif a == "-" then break
    elseif a:sub(1, 1) == "-" then usage_error("unknown option " .. a)
    else break end
    i = i + 1
  end
  if version then io.stdout:write("lied ", lied.version, " (", _VERSION, ")\n") end
  local rest = table.move(args, i, #args, 1, {})
  if rest[1] == "-" then
    local chunk, err = load(io.stdin:read("a"), "=stdin")
    if not chunk then error(err, 0) end
    local argt = { [0] = "-" }
    for k = 2, #rest do argt[k - 1] = rest[k] end
    _G.arg = argt
    local ok, e = xpcall(chunk, cli.traceback, table.unpack(argt))
    if not ok then error(e, 0) end
  elseif rest[1] then
    cmd_script(rest)
  elseif not ran and not version then
    interactive = true
  end
  return 0, interactive
end

-- Under mpirun lied runs `lied run` (an ensemble) or a script (its
-- lied.sweep calls split their points), never the REPL or another command:
-- a usage error, reported by rank 0 (the others wait for its end).
local function check_mpi(a)
  local mpi = lied.core.mpi()
  local script = a ~= nil and a:sub(1, 1) ~= "-" and not command_usage[a] and a ~= "help"
  if mpi.size > 1 and a ~= "run" and a ~= "--help" and a ~= "-h" and a ~= "--version" and not script then
    if mpi.rank ~= 0 then lied.core.mpi_wait_end(0) end
    usage_error(string.format("under mpirun with %d processes lied runs only 'lied run FILE.lua' "
      .. "on an ensemble or a script 'lied SCRIPT.lua' (its lied.sweep calls split their points) "
      .. "(docs/distributed.md); run %s with one process", mpi.size, a and "'" .. a .. "'" or "the REPL"))
  end
end

-- lied help [COMMAND]
local function cmd_help(cmd)
  if cmd == nil then io.stdout:write(cli.usage(), "\n"); return 0 end
  if not command_usage[cmd] then
    local names = {}
    for n in pairs(command_usage) do names[#names + 1] = n end
    table.sort(names)
    local _, near = lied.core.suggest(cmd, names)
    usage_error("lied help: no command '" .. cmd .. "'" .. near)
  end
  io.stdout:write(command_usage[cmd](), "\n")
  return 0
end

local commands = { run = cmd_run, info = cmd_info, vars = cmd_vars, params = cmd_params,
                   steady = cmd_steady, linearize = cmd_linearize }

-- The command of args: its exit status, and whether the REPL follows.
local function dispatch(args)
  local a = args[1]
  check_mpi(a)
  if (a == "--help" or a == "-h" or a == "--version") and args[2] ~= nil then
    usage_error(string.format("lied %s takes no argument, got '%s'", a, args[2]))
  elseif a == "help" and args[3] ~= nil then
    usage_error(string.format("lied help takes one command at most, got '%s'", args[3]))
  end
  if a == "--help" or a == "-h" then
    io.stdout:write(cli.usage(), "\n")
    return 0
  elseif a == "--version" then
    io.stdout:write("lied ", lied.version, " (", _VERSION,
                    lied.core.asserts and ", assertions on" or "", ")\n")
    return 0
  elseif a == "help" then
    return cmd_help(args[2])
  elseif command_usage[a] and wants_help(args) then
    io.stdout:write(command_usage[a](), "\n")
    return 0
  elseif commands[a] then
    return (commands[a](args))
  end
  return cmd_lua(args)
end

function cli.main(args)
  local repl = false
  local ok, code = xpcall(function()
    local rc, interactive = dispatch(args)
    repl = interactive or false
    return rc
  end, function(e) return e end)
  if ok then return code or 0, repl end
  -- under mpirun the message names the rank; main.c then ends every rank
  local mpi = lied.core.mpi()
  local who = mpi.size > 1 and string.format("lied: rank %d of %d: ", mpi.rank, mpi.size) or "lied: "
  -- usage errors exit 2, model and simulation errors 1 (docs/lua-api.md, "Errors");
  -- the message in one write (stderr is unbuffered): under mpirun another
  -- process's lines (mpirun's abort notice) cannot come between its parts
  if lied.error_kind(code) == "usage" then
    io.stderr:write(who .. lied.core.errtext(code) .. "\n(see lied --help)\n")
    return 2
  end
  io.stderr:write(who .. lied.core.errtext(code) .. "\n")
  return 1
end

return cli
