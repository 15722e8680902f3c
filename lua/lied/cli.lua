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
%s
  --stats            print run statistics on stderr (steps, rejections, evaluations,
                     Jacobians, factorisations, Newton iterations)
  A progress bar shows on stderr when it is a terminal and a run takes over 1 s;
  Ctrl-C stops a run and keeps the rows so far (every output stays valid).

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

function cli.usage()
  return string.format(usage, options_usage())
end

-- Error handler: the error alone (a message naming file:line, or an error
-- object of lied.core); with the Lua traceback when LIED_DEBUG is set.
function cli.traceback(e)
  if not os.getenv("LIED_DEBUG") then return e end
  local tb = debug.traceback(tostring(e), 2)
  return lied.error_kind(e) == "usage" and lied.core.error("usage", tb) or tb
end

local function usage_error(msg)
  error(lied.core.error("usage", msg), 0)
end

-- The chunk of a Lua file: a usage error when it cannot be opened, the
-- syntax error (file:line) when it does not compile.
local function load_chunk(path)
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
  local k, val = (v or ""):match("^([%w_%.%[%]]+)=(.+)$")
  if not k then usage_error("--set expects PATH=VALUE, got '" .. tostring(v) .. "'") end
  local n = tonumber(val)
  if not n then usage_error("--set " .. k .. ": value must be a number, got '" .. val .. "'") end
  if math.type(n) == "float" and n == math.floor(n) and math.abs(n) < 2^53 then n = math.tointeger(n) end
  sets[k] = n
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
    elseif name == "--set" then
      parse_set(value(), sets)
    elseif opt.arg == "" then
      o[opt.name] = false
    elseif opt.type == "string or list of strings" then
      o[opt.name] = o[opt.name] or {}
      table.insert(o[opt.name], value())
    elseif opt.type == "string" then
      o[opt.name] = value()
    else
      local v = value()
      o[opt.name] = (v == "step" and opt.type:find('"step"', 1, true)) and v or parse_number(name, v)
    end
    i = i + 1
  end
  return o, sets, positional, stats
end

local run_flags = { ["--stats"] = true }
for flag in pairs(flags) do run_flags[flag] = true end

local function cmd_run(args)
  local file = args[2]
  if not file or file:sub(1, 2) == "--" then usage_error("lied run: missing FILE.lua") end
  local o, sets, pos, stats_wanted = parse_opts(args, 3, run_flags)
  if #pos > 0 then usage_error("lied run: unexpected argument '" .. pos[1] .. "'") end
  local model = cli.load_model(file)
  local exp = {}
  for k, v in pairs(model.experiment or {}) do exp[k] = v end
  for k, v in pairs(o) do exp[k] = v end
  exp.out = o.out and (#o.out == 1 and o.out[1] or o.out) or "-"
  exp.memory = false
  local built = lied.build(model, sets)
  local _, stats, err = built:run(exp)
  if stats_wanted then
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

local function cmd_info(args)
  local model, sets = model_args(args, 0)
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
        local nm = names[r] or ""
        out:write("    ", nm, string.rep(" ", w - #nm), "  ", row, "\n")
      end
    end
  end
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
  end, function(e) return e end)
  if ok then return code or 0 end
  -- usage errors exit 2, model and simulation errors 1 (docs/lua-api.md, "Errors")
  if lied.error_kind(code) == "usage" then
    io.stderr:write("lied: ", tostring(code), "\n(see lied --help)\n")
    return 2
  end
  io.stderr:write("lied: ", tostring(code), "\n")
  return 1
end

return cli
